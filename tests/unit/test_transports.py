"""The transports' kernel-free parts: mailbox, interrupt watching, inbox bookkeeping, errors."""

from __future__ import annotations

import os
import signal
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from jaxdbg_widgets.debugger import transports
from jaxdbg_widgets.debugger.transports import interrupts
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.inbox import Inbox
from jaxdbg_widgets.debugger.transports.mailbox import Mailbox


def _in_thread(fn: Any) -> dict[str, Any]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return outcome


def test_mailbox_is_fifo_and_times_out_empty() -> None:
    box = Mailbox()
    box.put("a")
    box.put({"b": 1})
    assert box.take(0) == (True, "a")
    assert box.take(None) == (True, {"b": 1})
    assert box.take(0.01) == (False, None)


def test_mailbox_close_wakes_a_waiter_with_nothing() -> None:
    box = Mailbox()
    started = threading.Event()

    def wait() -> tuple[bool, Any]:
        started.set()
        return box.take(None)

    waiter = threading.Thread(target=lambda: results.append(wait()))
    results: list[tuple[bool, Any]] = []
    waiter.start()
    started.wait()
    box.close()
    waiter.join(timeout=30)
    assert results == [(False, None)]


def test_mailbox_interrupt_comes_first_and_raises_once() -> None:
    box = Mailbox()
    box.put("pending")
    box.interrupt()
    with pytest.raises(KeyboardInterrupt):
        box.take(None)
    assert box.take(0) == (True, "pending")
    assert box.take(0) == (False, None)


@pytest.fixture
def watching() -> Any:
    undo = interrupts.install()
    previous_handler = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        undo()


def test_sigint_reaches_a_worker_waiting_in_a_mailbox(watching: None) -> None:
    box = Mailbox()
    registered = threading.Event()

    def wait() -> Any:
        with interrupts.notify_on_interrupt(box.interrupt):
            registered.set()
            return box.take(30)

    def interrupt_soon() -> None:
        registered.wait()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_soon).start()
    outcome = _in_thread(wait)
    assert isinstance(outcome.get("error"), KeyboardInterrupt)


def test_sigint_handled_on_another_thread_wakes_a_main_thread_waiter_to_raise() -> None:
    """Its C handler ran elsewhere, so only the watcher's nudge ends the main thread's sleep;
    the main thread then raises the interrupt itself, and the mailbox keeps no second one."""
    undo = interrupts.install()
    previous_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    box = Mailbox()
    key = interrupts.add_waiter(box.interrupt, box.nudge)

    def interrupt_from_another_thread() -> None:
        time.sleep(0.2)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    threading.Thread(target=interrupt_from_another_thread, daemon=True).start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            box.take(20)
        assert time.monotonic() - started < 10, "woken by the timeout, not by the interrupt"
        assert box.take(0) == (False, None)
    finally:
        interrupts.remove_waiter(key)
        signal.signal(signal.SIGINT, previous_handler)
        undo()


def test_sigint_raises_in_a_worker_polling_in_python(watching: None) -> None:
    stop = threading.Event()
    registered = threading.Event()

    def poll() -> str:
        with interrupts.raising_on_interrupt():
            registered.set()
            while not stop.wait(0.01):
                pass
        return "not interrupted"

    def interrupt_soon() -> None:
        registered.wait()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_soon).start()
    outcome = _in_thread(poll)
    stop.set()
    assert isinstance(outcome.get("error"), KeyboardInterrupt)


_AFTER_AN_INTERRUPT_THEN_TRACE = """
import os, signal, sys, threading
from jaxdbg_widgets.debugger.transports import interrupts

undo = interrupts.install()
signal.signal(signal.SIGINT, lambda *_: None)
registered, stop, outcome = threading.Event(), threading.Event(), []

def poll():
    try:
        with interrupts.raising_on_interrupt():
            registered.set()
            while not stop.wait(0.01):
                pass
    except KeyboardInterrupt:
        outcome.append("interrupted")

worker = threading.Thread(target=poll)
worker.start()
registered.wait()
os.kill(os.getpid(), signal.SIGINT)
worker.join(30)
stop.set()
undo()

def traced():
    return sum(range(3))

sys.settrace(lambda *_: None)
print(outcome, traced())
"""


def test_an_interrupted_worker_leaves_nothing_pending_for_a_debugger() -> None:
    """A debugger, coverage or the checks at load trace every call; on CPython 3.11 a cleared
    asynchronous exception left the interpreter's pending flag set, and tracing then looped
    forever at the next call."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _AFTER_AN_INTERRUPT_THEN_TRACE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "['interrupted'] 3", done.stderr


def test_install_restores_the_previous_wakeup_fd() -> None:
    before = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(before)
    undo = interrupts.install()
    assert interrupts.is_watching()
    assert interrupts.install()() is None
    undo()
    assert not interrupts.is_watching()
    assert signal.set_wakeup_fd(before) == before


def test_install_off_the_main_thread_is_refused() -> None:
    outcome = _in_thread(interrupts.install)
    assert isinstance(outcome.get("error"), RuntimeError)


class _Comm:
    def __init__(self, comm_id: str) -> None:
        self.comm_id = comm_id
        self.handled: list[dict[str, Any]] = []

    def handle_msg(self, msg: dict[str, Any]) -> None:
        self.handled.append(msg)


class _Kernel:
    def __init__(self) -> None:
        self.restored: list[Any] = []
        self._parent_ident = {"shell": b"ident"}

    def get_parent(self, channel: str = "shell") -> dict[str, Any]:
        return {"header": {"msg_id": "cell"}}

    def set_parent(self, ident: Any, parent: dict[str, Any], channel: str) -> None:
        self.restored.append((ident, parent["header"]["msg_id"], channel))


class _TestInbox(Inbox):
    tier = Tier.SUBSHELL


def _message(data: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"comm_id": "c1", "data": data}}


def test_inbox_queues_custom_messages_and_restores_the_cell_parent() -> None:
    comm, kernel = _Comm("c1"), _Kernel()
    with _TestInbox(comm, CellParent.capture(kernel)) as inbox:
        comm.handle_msg(_message({"method": "update", "state": {"x": 1}}))
        comm.handle_msg(_message({"method": "custom", "content": {"command": "u"}}))
        assert inbox.get(0) == {"command": "u"}
        assert inbox.get(0) is None
    assert len(comm.handled) == 2
    assert kernel.restored[0] == (b"ident", "cell", "shell")
    assert len(kernel.restored) == 3


def test_inbox_close_restores_the_comm_exactly_and_is_idempotent() -> None:
    comm = _Comm("c2")
    original = comm.handle_msg
    inbox = _TestInbox(comm, CellParent.capture(_Kernel()))
    assert "handle_msg" in vars(comm)
    inbox.close()
    inbox.close()
    assert "handle_msg" not in vars(comm)
    assert comm.handle_msg == original
    with pytest.raises(RuntimeError, match="closed"):
        inbox.get(0)


def test_one_open_inbox_per_comm() -> None:
    comm = _Comm("c3")
    with (
        _TestInbox(comm, CellParent.capture(_Kernel())),
        pytest.raises(RuntimeError, match="already has an open inbox"),
    ):
        _TestInbox(comm, CellParent.capture(_Kernel()))
    _TestInbox(comm, CellParent.capture(_Kernel())).close()


def test_negative_timeout_is_a_value_error() -> None:
    inbox = _TestInbox(_Comm("c4"), CellParent.capture(_Kernel()))
    with inbox, pytest.raises(ValueError, match="timeout"):
        inbox.get(-1)


def test_outside_a_kernel_there_is_no_transport_and_no_stdin() -> None:
    widget = SimpleNamespace(comm=_Comm("c5"), on_msg=lambda *a, **k: None)
    with pytest.raises(transports.NoTransport, match="not running in an IPython kernel"):
        transports.open_inbox(widget)
    assert transports.read_line("(jdb) ") is None
    with pytest.raises(TypeError, match="prompt must be a str"):
        transports.read_line(3)  # type: ignore[arg-type]


class _GarbledSession:
    def feed_identities(self, msg_list, copy=True):
        raise ValueError("not a message")


class _PumpKernel(_Kernel):
    """Enough of an ipykernel 6 kernel for the pump: a queue whose messages cannot be parsed."""

    def __init__(self, entries: list[Any]) -> None:
        super().__init__()
        self.queue = list(entries)
        self.msg_queue = SimpleNamespace(
            qsize=lambda: len(self.queue),
            get_nowait=lambda: self.queue.pop(0),
            put_nowait=self.queue.append,
        )
        self.shell_stream = SimpleNamespace(flush=lambda *a: None)
        self.session = _GarbledSession()


def test_the_pump_gives_up_after_repeated_parse_failures(caplog, monkeypatch) -> None:
    from jaxdbg_widgets import _capabilities
    from jaxdbg_widgets.debugger.transports.pump import MAX_PARSE_FAILURES, PumpInbox

    monkeypatch.setattr(_capabilities, "_table", dict(_capabilities._table))

    entries = [(n, None, ([b"garbled"],)) for n in range(MAX_PARSE_FAILURES)]
    kernel = _PumpKernel([*entries, (99, "a queued callback", ())])
    inbox = PumpInbox(_Comm("c6"), CellParent.capture(kernel))
    try:
        with pytest.raises(transports.NoTransport, match="could not be parsed"):
            inbox.get(1)
    finally:
        inbox.close()
    assert sorted(kernel.queue) == sorted([*entries, (99, "a queued callback", ())])
    assert "could not parse a shell message" in caplog.text
    assert not _capabilities.has("ipykernel", "shell-pump")


@pytest.fixture
def restore_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Stand-in kernel routing: records each start and undo of the restore routing."""
    from jaxdbg_widgets import _capabilities
    from jaxdbg_widgets._kernel import restore

    calls: list[str] = []
    monkeypatch.setattr(_capabilities, "_table", {})
    _capabilities.check("ipykernel", "widget-restore", "restore", lambda: None)

    def route(kernel: Any, subshell_id: str, after: Any) -> Any:
        calls.append(f"start {subshell_id}")
        return lambda: calls.append("undo")

    monkeypatch.setattr(restore, "route_widget_restore", route)
    return calls


def _cell() -> CellParent:
    return CellParent(kernel=SimpleNamespace(), ident=[b"cell"], message={})


def test_restore_routing_is_on_while_any_inbox_waits(restore_calls: list[str]) -> None:
    from jaxdbg_widgets.debugger.transports.subshell import _RestoreRouting

    routing = _RestoreRouting()
    routing.acquire(_cell(), "s1")
    routing.acquire(_cell(), "s1")
    routing.release()
    assert restore_calls == ["start s1"]
    routing.release()
    routing.acquire(_cell(), "s2")
    assert restore_calls == ["start s1", "undo", "start s2"]


def test_restore_routing_stays_off_when_its_check_failed(
    restore_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jaxdbg_widgets import _capabilities
    from jaxdbg_widgets.debugger.transports.subshell import _RestoreRouting

    _capabilities.check("ipykernel", "widget-restore", "restore", lambda: 1 / 0)
    routing = _RestoreRouting()
    routing.acquire(_cell(), "s1")
    routing.release()
    assert restore_calls == []


def test_the_mailbox_wakes_an_outside_waiter_on_put_interrupt_and_close() -> None:
    woken: list[str] = []
    box = Mailbox(wake=lambda: woken.append("wake"))
    box.put("a")
    box.interrupt()
    box.close()
    assert woken == ["wake"] * 3


class _IdleShellKernel(_Kernel):
    """An ipykernel 6 kernel whose shell stream never receives anything; counts its reads."""

    def __init__(self) -> None:
        import zmq

        super().__init__()
        self.flushes = 0
        self.socket = zmq.Context.instance().socket(zmq.PULL)
        self.msg_queue = SimpleNamespace(qsize=lambda: 0, get_nowait=None, put_nowait=None)
        self.shell_stream = SimpleNamespace(flush=self._flush, socket=self.socket)

    def _flush(self) -> None:
        self.flushes += 1


def test_an_idle_pump_sleeps_until_woken_instead_of_polling(watching: None) -> None:
    from jaxdbg_widgets.debugger.transports.pump import PumpInbox

    kernel = _IdleShellKernel()
    waiting = threading.Event()
    inbox_box: list[Any] = []

    def wait() -> Any:
        inbox = PumpInbox(_Comm("c7"), CellParent.capture(kernel))
        inbox_box.append(inbox)
        try:
            waiting.set()
            return inbox.get(None)
        finally:
            inbox.close()

    def interrupt_later() -> None:
        waiting.wait()
        threading.Event().wait(0.3)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_later).start()
    try:
        outcome = _in_thread(wait)
    finally:
        kernel.socket.close()
    assert isinstance(outcome.get("error"), KeyboardInterrupt)
    assert kernel.flushes <= 3, f"the shell stream was read {kernel.flushes} times while idle"


SLEEP = 3.0
"""How long an evaluation sleeps in C: long enough that only an interrupt ends its wait first,
short enough that the helper left sleeping ends with its test. Its pending KeyboardInterrupt
would otherwise stall the next test: on CPython 3.11 a thread with a trace function (the
bounded capability checks) spins until another thread's pending exception is delivered."""


def _join_helpers() -> None:
    """Wait for the evaluation helpers an interrupt left to finish on their own."""
    for thread in threading.enumerate():
        if thread.name == "jaxdbg-evaluate":
            thread.join(timeout=10 * SLEEP)
            assert not thread.is_alive()


def _interrupt_once_running(started: threading.Event) -> None:
    def send() -> None:
        started.wait()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=send).start()


def test_an_interrupt_stops_a_sleeping_evaluation_on_a_worker_thread(watching: None) -> None:
    import time

    started = threading.Event()

    def sleep_long() -> str:
        started.set()
        time.sleep(SLEEP)
        return "slept"

    _interrupt_once_running(started)
    outcome = _in_thread(lambda: interrupts.call_interruptibly(sleep_long))
    assert isinstance(outcome.get("error"), KeyboardInterrupt), outcome
    _join_helpers()


def test_an_evaluation_that_never_returns_is_stopped_in_its_own_thread(watching: None) -> None:
    started = threading.Event()
    spinning: list[threading.Thread] = []

    def spin() -> None:
        spinning.append(threading.current_thread())
        started.set()
        while True:
            pass

    _interrupt_once_running(started)
    outcome = _in_thread(lambda: interrupts.call_interruptibly(spin))
    assert isinstance(outcome.get("error"), KeyboardInterrupt)
    spinning[0].join(timeout=30)
    assert not spinning[0].is_alive(), "the abandoned evaluation was stopped too"


def test_an_interruptible_call_returns_and_raises_as_a_plain_call(watching: None) -> None:
    assert _in_thread(lambda: interrupts.call_interruptibly(lambda: 41 + 1)) == {"value": 42}
    failed = _in_thread(lambda: interrupts.call_interruptibly(lambda: 1 / 0))
    assert isinstance(failed.get("error"), ZeroDivisionError)
    assert interrupts.call_interruptibly(lambda: "main") == "main"


def test_p_at_a_worker_thread_breakpoint_stops_on_an_interrupt(watching: None) -> None:
    from jaxdbg_widgets.debugger.session.single import Session
    from tests.unit.debugger.conftest import jax_frames

    session = Session(jax_frames(), thread_id=1)
    started = threading.Event()
    session.frames[0].globals["started"] = started
    _interrupt_once_running(started)
    expression = f"started.set() or __import__('time').sleep({SLEEP})"
    outcome = _in_thread(lambda: session.run(f"p {expression}"))
    entry = outcome["value"]
    assert entry.error and "KeyboardInterrupt" in entry.output
    assert session.resume is None, "the session itself goes on, as at a main-thread breakpoint"
    _join_helpers()

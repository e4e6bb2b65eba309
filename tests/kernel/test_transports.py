"""The transports inside a real ipykernel: a blocked cell still receives its widget's messages."""

from __future__ import annotations

import textwrap
from importlib.metadata import version
from typing import Any

import pytest

from tests.fixtures.kernel import ExecutionResult, KernelSession, Message

pytestmark = pytest.mark.kernel

_IPYKERNEL = tuple(int(part) for part in version("ipykernel").split(".")[:2])
EXPECTED_TIER = "subshell" if _IPYKERNEL >= (7, 4) else "pump"

SETUP = """
import threading
import anywidget, traitlets
import jax, jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
from IPython.display import display
from jaxdbg_widgets.debugger import transports

class Probe(anywidget.AnyWidget):
    _esm = "export default { render() {} }"
    ack = traitlets.Unicode("").tag(sync=True)

sharded = jax.device_put(jnp.arange(8.0), NamedSharding(jax.make_mesh((8,), ("x",)), P("x")))

def on_worker(fn):
    def callback(_):
        assert threading.current_thread() is not threading.main_thread()
        fn()
    jax.jit(lambda v: jax.debug.callback(callback, v))(sharded)
    jax.effects_barrier()

probe = Probe()
display(probe)
"""

MAIN_GET = """
with transports.open_inbox(probe) as inbox:
    print("ready", inbox.tier.value, flush=True)
    got = inbox.get(timeout=60)
    probe.ack = f"main:{got}"
print("done", got)
"""

WORKER_GET = """
def wait_for_click():
    with transports.open_inbox(probe) as inbox:
        print("ready", flush=True)
        got = inbox.get(timeout=60)
        probe.ack = f"worker:{got}"
        print("handled", got, threading.current_thread() is threading.main_thread(), flush=True)
on_worker(wait_for_click)
print("done")
"""


def _setup(kernel: KernelSession) -> str:
    result = kernel.execute(SETUP)
    assert result.error is None, result.error
    return next(
        m["content"]["comm_id"]
        for m in result.of_type("comm_open")
        if m["content"]["data"]["state"].get("_model_name") == "AnyModel"
    )


@pytest.fixture(scope="module")
def probe(shared_kernel: KernelSession) -> str:
    """The comm id of a displayed anywidget in the shared kernel."""
    return _setup(shared_kernel)


def _printed_or_ended(msg: Message, result: ExecutionResult, text: str) -> bool:
    """``text`` is in the cell's stdout, or the cell already ended (then the caller fails)."""
    if msg["parent_header"].get("msg_id") != result.msg_id:
        return False
    ended = msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
    return ended or (msg["msg_type"] == "stream" and text in result.stdout)


def _wait_printed(kernel: KernelSession, result: ExecutionResult, text: str) -> None:
    kernel.wait_for(lambda m: _printed_or_ended(m, result, text))
    assert text in result.stdout, (result.stdout, result.error)


def _start_and_wait_for(kernel: KernelSession, code: str, text: str, **kw: Any) -> ExecutionResult:
    result = kernel.start(textwrap.dedent(code), **kw)
    _wait_printed(kernel, result, text)
    return result


def _state_updates(result: ExecutionResult, name: str) -> list[Any]:
    return [
        m["content"]["data"]["state"][name]
        for m in result.of_type("comm_msg")
        if m["content"]["data"].get("method") in ("update", "echo_update")
        and name in m["content"]["data"].get("state", {})
    ]


def test_main_thread_get_receives_a_click(shared_kernel: KernelSession, probe: str) -> None:
    result = _start_and_wait_for(shared_kernel, MAIN_GET, "ready")
    shared_kernel.send_custom(probe, {"command": "c"})
    shared_kernel.wait(result)
    assert result.error is None, result.error
    assert f"ready {EXPECTED_TIER}" in result.stdout
    assert "done {'command': 'c'}" in result.stdout
    assert _state_updates(result, "ack") == ["main:{'command': 'c'}"]


def test_worker_thread_get_receives_a_click(shared_kernel: KernelSession, probe: str) -> None:
    result = _start_and_wait_for(shared_kernel, WORKER_GET, "ready")
    shared_kernel.send_custom(probe, "up")
    shared_kernel.wait(result)
    assert result.error is None, result.error
    assert "handled up False" in result.stdout
    assert result.stdout.rstrip().endswith("done")
    assert _state_updates(result, "ack") == ["worker:up"]


def test_messages_sent_before_get_are_queued_in_order(
    shared_kernel: KernelSession, probe: str
) -> None:
    # On the subshell tier the messages are handled while this thread is not in ``get``; on
    # the pump tier they wait in the shell socket until ``get`` pumps them.
    code = """
    import time
    with transports.open_inbox(probe) as inbox:
        print("ready", flush=True)
        while inbox.tier.value == "subshell" and probe.ack != "sent":
            time.sleep(0.01)
        print("got", [inbox.get(timeout=60) for _ in range(3)])
    """
    result = _start_and_wait_for(shared_kernel, code, "ready")
    for n in range(3):
        shared_kernel.send_custom(probe, n)
    shared_kernel.send_state(probe, {"ack": "sent"})
    shared_kernel.wait(result)
    assert result.error is None, result.error
    assert "got [0, 1, 2]" in result.stdout


def test_get_times_out_with_none(shared_kernel: KernelSession, probe: str) -> None:
    code = """
    with transports.open_inbox(probe) as inbox:
        print("main", inbox.get(timeout=0.2))
    def worker_get():
        with transports.open_inbox(probe) as inbox:
            print("worker", inbox.get(timeout=0.2))
    on_worker(worker_get)
    """
    result = shared_kernel.execute(textwrap.dedent(code))
    assert result.error is None, result.error
    assert "main None" in result.stdout
    assert "worker None" in result.stdout


def test_two_inboxes_in_a_row_each_get_their_click(
    shared_kernel: KernelSession, probe: str
) -> None:
    code = """
    def serve(label):
        with transports.open_inbox(probe) as inbox:
            print("ready", label, flush=True)
            print("got", label, inbox.get(timeout=60), flush=True)
    serve("main")
    on_worker(lambda: serve("worker"))
    """
    result = _start_and_wait_for(shared_kernel, code, "ready main")
    shared_kernel.send_custom(probe, "first")
    _wait_printed(shared_kernel, result, "ready worker")
    shared_kernel.send_custom(probe, "second")
    shared_kernel.wait(result)
    assert result.error is None, result.error
    assert "got main first" in result.stdout
    assert "got worker second" in result.stdout


def test_comm_is_restored_and_routes_to_main_after_close(
    shared_kernel: KernelSession, probe: str
) -> None:
    check = "print(sorted(set(vars(probe.comm)) & {'handle_msg', '_reply_subshell_for'}))"
    assert shared_kernel.execute(check).stdout.strip() == "[]"
    shared_kernel.execute(
        "seen = []\nprobe.on_msg(lambda w, c, b: seen.append((c, threading.current_thread().name)))"
    )
    shared_kernel.send_custom(probe, "idle")
    result = shared_kernel.execute("import time; time.sleep(0.2); print(seen)")
    assert result.stdout.strip() == "[('idle', 'MainThread')]"


def test_closed_comm_and_wrong_input_are_clear_errors(
    shared_kernel: KernelSession, probe: str
) -> None:
    result = shared_kernel.execute("transports.open_inbox(42)")
    assert result.error["ename"] == "TypeError"
    code = """
    with transports.open_inbox(probe):
        transports.open_inbox(probe)
    """
    result = shared_kernel.execute(textwrap.dedent(code))
    assert result.error["ename"] == "RuntimeError"
    assert "already has an open inbox" in result.error["evalue"]
    assert shared_kernel.execute("print(1 + 1)").stdout.strip() == "2"


@pytest.mark.parametrize("where", ["main", "worker"])
def test_read_line_answers_through_stdin(
    shared_kernel: KernelSession, probe: str, where: str
) -> None:
    code = (
        "print('line', repr(transports.read_line('(jdb) ')))"
        if where == "main"
        else "on_worker(lambda: print('line', repr(transports.read_line('(jdb) '))))"
    )
    result = shared_kernel.start(code, allow_stdin=True)
    request = shared_kernel.input_request(result)
    assert request["msg_type"] == "input_request"
    assert request["content"]["prompt"] == "(jdb) "
    assert request["parent_header"]["msg_id"] == result.msg_id
    shared_kernel.client.input("p x")
    shared_kernel.wait(result)
    assert result.error is None, result.error
    assert "line 'p x'" in result.stdout


def test_read_line_without_stdin_is_none(shared_kernel: KernelSession, probe: str) -> None:
    code = "print(transports.read_line('x')); on_worker(lambda: print(transports.read_line('x')))"
    result = shared_kernel.execute(code, allow_stdin=False)
    assert result.stdout.split() == ["None", "None"]


@pytest.mark.parametrize("where", ["main", "worker"])
def test_interrupt_while_blocked_in_get(kernel: KernelSession, where: str) -> None:
    comm_id = _setup(kernel)
    kernel.execute("undo_watch = transports.watch_interrupts()")
    # No timeout: a lost interrupt fails this test instead of ending the wait quietly.
    code = (MAIN_GET if where == "main" else WORKER_GET).replace("timeout=60", "timeout=None")
    result = _start_and_wait_for(kernel, code, "ready")
    kernel.interrupt()
    kernel.wait(result)
    assert result.error is not None
    assert result.error["ename"] == "KeyboardInterrupt"
    after = kernel.execute(
        "print(sorted(set(vars(probe.comm)) & {'handle_msg', '_reply_subshell_for'}), 1 + 1)"
    )
    assert after.stdout.strip() == "[] 2"
    again = _start_and_wait_for(kernel, MAIN_GET, "ready")
    kernel.send_custom(comm_id, "after")
    kernel.wait(again)
    assert "done after" in again.stdout


OFF_MAIN_SIGINT = """
import signal
import threading
import time


def interrupt_from_another_thread():
    time.sleep(1)  # the main thread is asleep in its wait by now
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)


threading.Thread(target=interrupt_from_another_thread, daemon=True).start()
"""


def test_an_interrupt_that_lands_on_another_thread_ends_a_wait_on_the_main_thread(
    kernel: KernelSession,
) -> None:
    """A process-wide SIGINT may run its C handler on any thread, which leaves the main thread
    asleep in its wait: the interrupt watcher must wake it to raise there."""
    _setup(kernel)
    kernel.execute("undo_watch = transports.watch_interrupts()")
    code = OFF_MAIN_SIGINT + textwrap.dedent(MAIN_GET).replace("timeout=60", "timeout=None")
    result = kernel.wait(kernel.start(code), timeout=30)
    assert result.error is not None
    assert result.error["ename"] == "KeyboardInterrupt"
    assert "ready" in result.stdout and "done" not in result.stdout
    assert kernel.execute("print(1 + 1)").stdout.strip() == "2"


@pytest.mark.parametrize("where", ["main", "worker"])
def test_interrupt_while_waiting_in_read_line(kernel: KernelSession, where: str) -> None:
    _setup(kernel)
    kernel.execute("undo_watch = transports.watch_interrupts()")
    ask = "print('line', transports.read_line('(jdb) '))"
    code = ask if where == "main" else f"on_worker(lambda: {ask})"
    result = kernel.start(code, allow_stdin=True)
    assert kernel.input_request(result)["msg_type"] == "input_request"
    kernel.interrupt()
    kernel.wait(result)
    assert result.error is not None
    assert result.error["ename"] == "KeyboardInterrupt"
    assert "line" not in result.stdout
    assert kernel.execute("print(1 + 1)").stdout.strip() == "2"

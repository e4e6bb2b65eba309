"""The IPython/ipykernel adapters' pure parts, against stand-in shells and kernels."""

from __future__ import annotations

import asyncio
import re
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
import zmq
from jupyter_client.session import Session

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import (
    cell_files,
    checks,
    completion,
    error_line,
    messages,
    restore,
    shell_queue,
    subshells,
)
from jaxdbg_widgets._kernel import shell as running


def test_outside_ipython_there_is_no_shell_or_kernel(monkeypatch):
    monkeypatch.setattr(running.sys, "modules", {})
    assert running.running_shell() is None
    assert running.running_kernel() is None


def test_ipython7_cell_names_are_read_from_the_file_name():
    assert cell_files.cell_name("<ipython-input-3-5f1c0a2b9e1d>") == "In[3]"
    assert cell_files.cell_name("/home/me/script.py") is None


def test_hashed_cell_files_are_remembered_before_the_cell_runs(monkeypatch):
    compiler = SimpleNamespace(
        get_code_name=lambda raw_code, code, number: f"/tmp/{hash(raw_code)}.py"
    )
    shell = SimpleNamespace(compile=compiler)
    monkeypatch.setattr(_capabilities, "_table", dict(_capabilities._table))
    _capabilities.check("ipython", "cell-names", "names", lambda: cell_files.probe(shell))
    cell_files.remember_cell_file(shell, "x = 1\n", 7)
    assert cell_files.cell_name(f"/tmp/{hash('x = 1' + chr(10))}.py") == "In[7]"


def test_ipython8_cells_named_by_their_code_are_remembered_before_they_run(monkeypatch):
    """ipykernel names a cell's file after its code: the same code run again is one file with a
    new number, which IPython >= 8 tells only after compiling it; numbered names are left."""
    by_code = SimpleNamespace(
        get_code_name=lambda raw_code, code, number: f"/tmp/{hash(raw_code)}.py",
        format_code_name=lambda name: None,
    )
    numbered = SimpleNamespace(
        get_code_name=lambda raw_code, code, number: f"<ipython-input-{number}-{hash(code)}>",
        format_code_name=lambda name: None,
    )
    monkeypatch.setattr(_capabilities, "_table", dict(_capabilities._table))
    monkeypatch.setattr(cell_files, "_cell_files", {})
    for compiler in (by_code, numbered):
        shell = SimpleNamespace(compile=compiler)
        probe = partial(cell_files.probe, shell)
        _capabilities.check("ipython", "cell-names", "names", probe)
        before = cell_files.changes()
        cell_files.remember_cell_file(shell, "x = 2\n", 8)
        cell_files.remember_cell_file(shell, "x = 2\n", 9)
        assert cell_files.changes() - before == (2 if compiler is by_code else 0)
    assert cell_files._cell_files == {f"/tmp/{hash('x = 2' + chr(10))}.py": 9}
    history = SimpleNamespace(input_hist_raw=["", "y = 3"])
    cell_files.remember_cell_history(SimpleNamespace(compile=by_code, history_manager=history))
    assert len(cell_files._cell_files) == 1  # IPython >= 8 names the cells it ran itself


def test_a_changed_showtraceback_signature_prints_the_line_instead(capsys, monkeypatch):
    monkeypatch.setattr(_capabilities, "_table", {})

    def show(etype, value, stb, extra):
        raise AssertionError("not called with a changed signature")

    shell = SimpleNamespace(
        _showtraceback=show,
        set_custom_exc=None,
        InteractiveTB=SimpleNamespace(get_exception_only=lambda t, v: [f"{t.__name__}: {v}\n"]),
    )
    checks.check_capabilities(shell)
    assert not _capabilities.has("ipython", "error-line")
    assert error_line.show_error_line(shell, ValueError("bad")) == ["ValueError: bad\n"]
    assert capsys.readouterr().err == "ValueError: bad\n"


def test_a_chained_error_is_shown_as_its_own_line_and_keeps_its_chain(capsys):
    """As a FloatingPointError raised inside JAX's backward pass, with JAX's stack as its cause."""
    from IPython.core.ultratb import AutoFormattedTB

    def raised(error: BaseException, cause: BaseException) -> BaseException:
        try:
            raise error from cause
        except type(error) as caught:
            return caught

    error = raised(FloatingPointError("invalid value (nan)"), RuntimeError("the user's stack"))
    shell = SimpleNamespace(InteractiveTB=AutoFormattedTB(mode="Context"))
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "".join(error_line.show_error_line(shell, error)))
    assert shown.strip() == "FloatingPointError: invalid value (nan)"
    assert "Internal Python error" not in capsys.readouterr().out
    assert isinstance(error.__cause__, RuntimeError) and error.__suppress_context__


@pytest.mark.parametrize("route", ["magic_arg_matchers", "custom_matchers"])
def test_line_completion_is_added_and_removed(route):
    completer = SimpleNamespace(custom_matchers=[], magic_arg_matchers=[], text_until_cursor="")
    shell = SimpleNamespace(Completer=completer)
    if route == "magic_arg_matchers":
        undo = completion.add_magic_arg_matcher(shell, "%jaxdbg", lambda line: ["on", "off"])
        matcher = completer.magic_arg_matchers[-1]
        completer.text_until_cursor = "%jaxdbg nans "
        assert matcher("%jaxdbg nans ") == ["on", "off"]
        completer.text_until_cursor = "import o"
        assert matcher("import o") == []
    else:
        undo = completion.add_line_completer(shell, "%jaxdbg", lambda line: [])
    undo()
    assert completer.custom_matchers == [] and completer.magic_arg_matchers == []


def _wire(session: Any, msg_type: str, content: dict[str, Any], subshell_id: str | None = None):
    """A shell message as the shell-channel thread receives it: identities, then frames."""
    msg = session.msg(msg_type, content)
    msg["header"]["subshell_id"] = subshell_id
    return [zmq.Frame(part) for part in session.serialize(msg, ident=[b"page"])]


@pytest.fixture
def session() -> Any:
    return Session(key=b"secret")


def _routed(session: Any, controls: set[str], wire: list[Any]) -> dict[str, Any] | None:
    """The re-addressed message as the subshell will read it, or ``None`` if left alone."""
    readdressed = restore.readdress(session, wire, "debugger", controls)
    if readdressed is None:
        return None
    idents, frames = session.feed_identities(readdressed, copy=False)
    assert idents == [b"page"]
    return Session(key=b"secret").deserialize(frames, content=True, copy=False)


def test_only_widget_restoring_requests_to_the_main_shell_are_readdressed(session):
    controls: set[str] = set()
    info = _routed(session, controls, _wire(session, "kernel_info_request", {}))
    assert info is not None and info["header"]["subshell_id"] == "debugger"
    comms = _wire(session, "comm_info_request", {"target_name": "jupyter.widget"})
    assert _routed(session, controls, comms)["content"] == {"target_name": "jupyter.widget"}
    assert _routed(session, controls, _wire(session, "execute_request", {"code": "1"})) is None
    elsewhere = _wire(session, "comm_info_request", {}, subshell_id="per-target")
    assert _routed(session, controls, elsewhere) is None

    state = _wire(session, "comm_msg", {"comm_id": "w", "data": {"method": "request_state"}})
    assert _routed(session, controls, state) is not None
    click = _wire(session, "comm_msg", {"comm_id": "w", "data": {"method": "custom"}})
    assert _routed(session, controls, click) is None
    other = _wire(session, "comm_open", {"comm_id": "o", "target_name": "jupyter.widget"})
    assert _routed(session, controls, other) is None
    assert controls == set()


def test_a_control_comm_opened_at_a_breakpoint_stays_on_the_subshell_until_closed(session):
    controls: set[str] = set()
    opened = {"comm_id": "c", "target_name": messages.CONTROL_TARGET, "data": {}}
    assert _routed(session, controls, _wire(session, "comm_open", opened)) is not None
    states = {"comm_id": "c", "data": {"method": "request_states"}}
    routed = _routed(session, controls, _wire(session, "comm_msg", states, "per-target"))
    assert routed["header"]["subshell_id"] == "debugger"
    closed = _wire(session, "comm_close", {"comm_id": "c", "data": {}})
    assert _routed(session, controls, closed) is not None
    assert controls == set()
    assert _routed(session, controls, _wire(session, "comm_msg", states)) is None


def test_restore_handlers_give_the_cell_its_parent_back_however_they_end():
    calls: list[str] = []

    async def answer(stream, ident, msg):
        calls.append("async")

    def fail(stream, ident, msg):
        raise ValueError("bad message")

    after = lambda: calls.append("after")  # noqa: E731
    # Stepped by hand: the coroutine awaits nothing, and another test may have left an event
    # loop marked as running in this thread, where asyncio.run refuses to start.
    with pytest.raises(StopIteration):
        restore.then(answer, after)(None, None, {}).send(None)
    assert restore.then(lambda *_: calls.append("sync"), after)(None, None, {}) is None
    with pytest.raises(ValueError):
        restore.then(fail, after)(None, None, {})
    assert calls == ["async", "after", "sync", "after", "after"]


def test_restore_routing_is_off_without_the_kernels_shell_stream():
    kernel = SimpleNamespace(shell_channel_thread=SimpleNamespace(io_loop=None, manager=None))
    with pytest.raises(AttributeError):
        restore.probe(kernel)


def test_the_pump_picks_restore_requests_out_of_ipykernel_6s_queue(session):
    kernel = SimpleNamespace(session=session)
    controls: set[str] = set()

    def queued(msg_type: str, content: dict[str, Any]) -> tuple[Any, ...]:
        return (0, None, (_wire(session, msg_type, content),))

    assert shell_queue.queued_restore_request(kernel, queued("kernel_info_request", {}), controls)
    assert not shell_queue.queued_restore_request(
        kernel, queued("execute_request", {"code": ""}), controls
    )
    assert not shell_queue.queued_restore_request(kernel, (0, None, ()), controls)


def test_handler_coroutines_run_to_their_end_on_the_blocked_thread():
    ran: list[str] = []

    async def answers() -> None:
        ran.append("answered")

    async def waits() -> None:
        await asyncio.get_event_loop().create_future()

    shell_queue.finish_now(answers())
    assert ran == ["answered"]
    loop = asyncio.new_event_loop()
    try:
        asyncio.set_event_loop(loop)
        with pytest.raises(RuntimeError, match="blocked event loop"):
            shell_queue.finish_now(waits())
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def test_a_routing_the_shell_thread_never_installs_changes_nothing(session, monkeypatch):
    monkeypatch.setattr(restore, "SHELL_THREAD_TIMEOUT", 0.01)
    callbacks: list[Any] = []
    receivers: list[Any] = []
    handlers = {msg_type: print for msg_type in messages.RESTORE_MESSAGES}
    kernel = SimpleNamespace(
        session=session,
        shell_channel_thread_main=print,
        shell_handlers=handlers,
        shell_stream=SimpleNamespace(on_recv=lambda callback, copy: receivers.append(callback)),
        shell_channel_thread=SimpleNamespace(
            io_loop=SimpleNamespace(add_callback=callbacks.append)
        ),
    )
    with pytest.raises(TimeoutError):
        restore.route_widget_restore(kernel, "debugger", lambda: None)
    assert all(handler is print for handler in handlers.values())
    for late in callbacks:  # the shell thread wakes up after all
        late()
    assert receivers[-1] is print


class _Comm:
    def __init__(self) -> None:
        self.comm_id = "c"


def test_a_routed_comm_gets_back_exactly_what_it_had():
    plain = _Comm()
    undo = subshells.route_comm(plain, "debugger")
    assert plain._reply_subshell_for({}, "main") == "debugger"
    undo()
    assert "_reply_subshell_for" not in vars(plain)

    def own(data, default):
        return "its own"

    routed_before = _Comm()
    routed_before._reply_subshell_for = own
    undo = subshells.route_comm(routed_before, "debugger")
    assert routed_before._reply_subshell_for({}, "main") == "debugger"
    undo()
    assert routed_before._reply_subshell_for is own


def test_the_pump_sleeps_until_its_wake_fd_is_written():
    import socket
    import threading

    context = zmq.Context.instance()
    quiet = context.socket(zmq.PULL)
    reader, writer = socket.socketpair()
    try:
        kernel = SimpleNamespace(shell_stream=SimpleNamespace(socket=quiet))
        shell_queue.wait_for_shell_message(kernel, reader.fileno(), 0.01)  # nothing: times out
        threading.Timer(0.05, lambda: writer.send(b"x")).start()
        shell_queue.wait_for_shell_message(kernel, reader.fileno(), None)
        assert reader.recv(1) == b"x"
    finally:
        quiet.close()
        reader.close()
        writer.close()

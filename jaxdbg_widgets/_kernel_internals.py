"""The one place that touches private IPython and ipykernel attributes.

Everything else asks this module: for the running shell and kernel, for the cell's parent
header, for stdin, for the two clickable transports (ipykernel 7's subshells, ipykernel 6's
shell pumping), for one-line error display and for ``%jaxdbg`` completion on IPython 7 to 9.
:func:`check_capabilities` records each private name and signature in
:mod:`jaxdbg_widgets._capabilities` when the extension loads; a failed check turns off only the
feature that needs it. IPython and ipykernel are imported lazily, never at module import.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from jaxdbg_widgets import _capabilities

T = TypeVar("T")
CREATE_SUBSHELL_TIMEOUT = 10.0
SHELL_THREAD_TIMEOUT = 5.0
COMM_MESSAGES = frozenset({"comm_msg", "comm_close"})
CONTROL_TARGET = "jupyter.widget.control"
# What a reloaded page or a second tab sends to get its widgets back: kernel info (JupyterLab
# holds every other message until it is answered, or 3 s), the widget control comm and its
# ``request_states``, and the fallback ``comm_info_request`` with a ``request_state`` per widget.
RESTORE_MESSAGES = frozenset(
    {"kernel_info_request", "comm_info_request", "comm_open", "comm_msg", "comm_close"}
)

FEATURE_PARENT = "output of widget clicks and worker threads stays in the cell"
FEATURE_SUBSHELL = "widget clicks at a blocked breakpoint (kernel subshell)"
FEATURE_PUMP = "widget clicks at a blocked breakpoint (shell pumping)"
FEATURE_RESTORE = "debugger widget back after a page reload at a blocked breakpoint"
FEATURE_STDIN = "typed (jdb) prompt through the stdin channel"
FEATURE_ERROR_LINE = "debugger quits and interrupts shown in one line"
FEATURE_COMPLETION = "%jaxdbg tab completion"
FEATURE_CELL_NAMES = "In[N] names for cell code in prints and frames"

# IPython 7 names cell code ``<ipython-input-3-5f1c...>``; later versions ask ``compile``.
_OLD_CELL_FILE = re.compile(r"^<ipython-input-(\d+)-[0-9a-f]*>$")


# The running shell and kernel -------------------------------------------------------------


def running_shell() -> Any | None:
    """The running IPython shell, or ``None`` (outside IPython, or before it was imported)."""
    module = sys.modules.get("IPython")
    get_ipython = getattr(module, "get_ipython", None)
    return get_ipython() if get_ipython is not None else None


def running_kernel() -> Any | None:
    """The running ipykernel's kernel object, or ``None`` outside a kernel."""
    return getattr(running_shell(), "kernel", None)


# The cell's parent header -----------------------------------------------------------------


def _probe_parent(kernel: Any) -> None:
    _capabilities.require_attributes(kernel, ("get_parent", "set_parent", "_parent_ident"))
    _capabilities.require_parameters(kernel.set_parent, ("ident", "parent", "channel"))
    _capabilities.require_parameters(kernel.get_parent, ("channel",))
    if "shell" not in kernel._parent_ident:
        raise KeyError("kernel._parent_ident has no 'shell' entry")


def has_parent_tracking(kernel: Any) -> bool:
    """Whether the kernel lets us read and restore the shell parent header."""
    return _passes(_probe_parent, kernel)


def shell_parent(kernel: Any) -> tuple[Any, dict[str, Any]]:
    """The shell request (identities, message) the calling thread's output is sent under."""
    return kernel._parent_ident["shell"], kernel.get_parent("shell")


def restore_shell_parent(kernel: Any, ident: Any, message: dict[str, Any]) -> None:
    """Make ``message`` the kernel-wide fallback parent without touching this thread's own."""
    contextvars.copy_context().run(kernel.set_parent, ident, message, "shell")


def request_id(kernel: Any) -> str | None:
    """The ``msg_id`` of the shell request running now, or ``None``."""
    try:
        return kernel.get_parent("shell").get("header", {}).get("msg_id")
    except (AttributeError, TypeError):
        return None


# stdin --------------------------------------------------------------------------------------


def _probe_stdin(kernel: Any) -> None:
    _capabilities.require_attributes(kernel, ("_allow_stdin", "raw_input"))


def stdin_allowed(kernel: Any) -> bool:
    """Whether the request executing now lets the kernel ask the front end for input."""
    return bool(getattr(kernel, "_allow_stdin", False))


def read_stdin(kernel: Any, prompt: str) -> str | None:
    """One line through the kernel's stdin channel; ``None`` when the front end has none."""
    from IPython.core.error import StdinNotImplementedError

    try:
        return kernel.raw_input(prompt)
    except StdinNotImplementedError:
        return None


# SUBSHELL tier: ipykernel >= 7.4 ----------------------------------------------------------


def _probe_subshell(kernel: Any) -> None:
    channel_thread = kernel.shell_channel_thread
    _capabilities.require_attributes(channel_thread, ("io_loop", "manager"))
    _capabilities.require_attributes(
        channel_thread.manager,
        ("_create_subshell", "list_subshell", "get_shell_channel_to_subshell_socket"),
    )
    _capabilities.require_attributes(kernel, ("comm_manager",))
    from ipykernel.comm.comm import BaseComm

    _capabilities.require_attributes(BaseComm, ("_reply_subshell_for",))
    _capabilities.require_parameters(BaseComm._reply_subshell_for, ("data", "default"))
    _probe_parent(kernel)


def supports_subshell_routing(kernel: Any) -> bool:
    """ipykernel >= 7.4: comm messages can be routed to a subshell's thread."""
    return _passes(_probe_subshell, kernel)


def create_subshell(kernel: Any) -> str:
    """Create a kernel subshell (on the shell-channel thread, where it must be made)."""
    manager = kernel.shell_channel_thread.manager
    done: concurrent.futures.Future[str] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(manager._create_subshell())
        except BaseException as err:
            done.set_exception(err)

    kernel.shell_channel_thread.io_loop.add_callback(run)
    return done.result(timeout=CREATE_SUBSHELL_TIMEOUT)


def _on_shell_channel_thread(kernel: Any, action: Callable[[], None]) -> None:
    """Run ``action`` on the shell-channel thread (which owns the shell stream) and wait."""
    done: concurrent.futures.Future[None] = concurrent.futures.Future()

    def run() -> None:
        try:
            action()
            done.set_result(None)
        except BaseException as err:
            done.set_exception(err)

    kernel.shell_channel_thread.io_loop.add_callback(run)
    done.result(timeout=SHELL_THREAD_TIMEOUT)


def subshell_exists(kernel: Any, subshell_id: str) -> bool:
    """Whether ``subshell_id`` is still one of the kernel's subshells."""
    return subshell_id in kernel.shell_channel_thread.manager.list_subshell()


def subshell_router(subshell_id: str) -> tuple[str, Callable[[Any, Any], str]]:
    """The comm attribute and value that send a comm's incoming messages to ``subshell_id``."""
    return "_reply_subshell_for", lambda data, default: subshell_id


def _require_shell_handlers(kernel: Any, msg_types: frozenset[str]) -> None:
    """Raise ``KeyError`` unless the kernel has a callable shell handler for each type."""
    for msg_type in sorted(msg_types):
        if not callable(kernel.shell_handlers.get(msg_type)):
            raise KeyError(f"kernel.shell_handlers has no {msg_type!r} handler")


def _probe_restore_routing(kernel: Any) -> None:
    _probe_subshell(kernel)
    import zmq

    _capabilities.require_attributes(zmq, ("Frame",))
    _capabilities.require_attributes(kernel, ("shell_stream", "shell_channel_thread_main"))
    _capabilities.require_attributes(kernel.shell_channel_thread, ("asyncio_lock",))
    _capabilities.require_parameters(kernel.shell_stream.on_recv, ("callback", "copy"))
    session = kernel.session
    _capabilities.require_parameters(session.feed_identities, ("msg_list", "copy"))
    _capabilities.require_parameters(session.deserialize, ("msg_list", "content", "copy"))
    _capabilities.require_parameters(session.serialize, ("msg", "ident"))
    _capabilities.require_attributes(session, ("unpack",))
    _require_shell_handlers(kernel, RESTORE_MESSAGES)


def supports_restore_routing(kernel: Any) -> bool:
    """ipykernel >= 7.4: a reloaded page's widget requests can be sent to a subshell."""
    return _passes(_probe_restore_routing, kernel)


def route_widget_restore(
    kernel: Any, subshell_id: str, after: Callable[[], None]
) -> Callable[[], None]:
    """Send what a reloaded page asks to get its widgets back to ``subshell_id``; the undo.

    The main shell is blocked at the breakpoint, so the shell-channel thread's receiver is
    wrapped: a :data:`RESTORE_MESSAGES` request addressed to the main shell (and every message
    of a widget control comm opened that way) is re-addressed to the subshell, re-signed and
    sent to it; everything else goes to the kernel's own router untouched. The handlers of
    those messages run ``after`` once done, so the cell keeps its parent header.
    """
    session = kernel.session
    receive = kernel.shell_channel_thread_main
    controls: set[str] = set()
    handlers = kernel.shell_handlers
    saved = {msg_type: handlers[msg_type] for msg_type in RESTORE_MESSAGES}

    def route(msg: list[Any]) -> Any:
        readdressed = None
        with contextlib.suppress(Exception):  # as it came: the router logs what it cannot parse
            readdressed = _readdressed(session, msg, subshell_id, controls)
        if readdressed is None:
            return receive(msg)
        return _forward(kernel.shell_channel_thread, subshell_id, readdressed)

    def put_back() -> None:
        kernel.shell_stream.on_recv(receive, copy=False)

    try:
        _on_shell_channel_thread(kernel, lambda: kernel.shell_stream.on_recv(route, copy=False))
    except BaseException:
        kernel.shell_channel_thread.io_loop.add_callback(put_back)  # runs after a late install
        raise
    for msg_type, handler in saved.items():
        handlers[msg_type] = _then(handler, after)

    def undo() -> None:
        handlers.update(saved)
        _on_shell_channel_thread(kernel, put_back)

    return undo


def _readdressed(
    session: Any, msg: list[Any], subshell_id: str, controls: set[str]
) -> list[Any] | None:
    """``msg`` with ``subshell_id`` in its header when it restores widgets, else ``None``."""
    idents, frames = session.feed_identities(msg, copy=False)
    peek = session.deserialize(frames, content=False, copy=False)
    if not _restores_widgets(session, peek, controls):
        return None
    import zmq

    peek["header"]["subshell_id"] = subshell_id
    parts = [*session.serialize(peek, ident=idents), *peek["buffers"]]
    return [part if isinstance(part, zmq.Frame) else zmq.Frame(part) for part in parts]


async def _forward(channel_thread: Any, subshell_id: str, msg: list[Any]) -> None:
    """Hand ``msg`` to the subshell's socket in turn, as the kernel's router does.

    Sent straight there: the router would follow a comm's own reply routing, which names the
    blocked main shell for every widget made by a cell.
    """
    async with channel_thread.asyncio_lock:
        socket = channel_thread.manager.get_shell_channel_to_subshell_socket(subshell_id)
        socket.send_multipart(msg, copy=False)


def _restores_widgets(session: Any, peek: dict[str, Any], controls: set[str]) -> bool:
    """Whether a peeked shell message is part of a page getting its widgets back."""
    header = peek["header"]
    msg_type = header.get("msg_type")
    if msg_type not in RESTORE_MESSAGES:
        return False
    content = session.unpack(peek["content"]) if msg_type.startswith("comm_") else {}
    comm_id = content.get("comm_id")
    if comm_id in controls:
        if msg_type == "comm_close":
            controls.discard(comm_id)
        return True
    if header.get("subshell_id") is not None:
        return False
    if msg_type == "comm_open":
        if content.get("target_name") != CONTROL_TARGET:
            return False
        controls.add(comm_id)
        return True
    if msg_type == "comm_msg":
        return (content.get("data") or {}).get("method") == "request_state"
    return msg_type in ("kernel_info_request", "comm_info_request")


def _then(handler: Callable[..., Any], after: Callable[[], None]) -> Callable[..., Any]:
    """``handler`` (a plain or async shell handler) followed by ``after``, whatever happens."""

    def handle(stream: Any, ident: Any, msg: dict[str, Any]) -> Any:
        try:
            result = handler(stream, ident, msg)
        except BaseException:
            after()
            raise
        if not inspect.isawaitable(result):
            after()
            return result
        return _awaited_then(result, after)

    return handle


async def _awaited_then(result: Any, after: Callable[[], None]) -> Any:
    try:
        return await result
    finally:
        after()


# PUMP tier: ipykernel 6 --------------------------------------------------------------------


def _probe_pump_restore(kernel: Any) -> None:
    _probe_pump(kernel)
    _capabilities.require_parameters(kernel._publish_status, ("status", "channel", "parent"))
    _require_shell_handlers(kernel, RESTORE_MESSAGES)


def supports_pumped_restore(kernel: Any) -> bool:
    """ipykernel 6: a reloaded page's widget requests may be handled by the pump too."""
    return _passes(_probe_pump_restore, kernel)


def _probe_pump(kernel: Any) -> None:
    queue = kernel.msg_queue
    _capabilities.require_attributes(queue, ("qsize", "get_nowait", "put_nowait"))
    _capabilities.require_attributes(kernel.shell_stream, ("flush",))
    _capabilities.require_attributes(kernel.session, ("feed_identities", "unpack", "deserialize"))
    _require_shell_handlers(kernel, COMM_MESSAGES)
    _capabilities.require_parameters(kernel.session.feed_identities, ("msg_list", "copy"))
    _probe_parent(kernel)


def supports_pumping(kernel: Any) -> bool:
    """ipykernel 6: shell messages wait in ``msg_queue`` while a cell runs; we may read them."""
    return not hasattr(kernel, "shell_channel_thread") and _passes(_probe_pump, kernel)


def take_shell_messages(kernel: Any) -> list[Any]:
    """Move every shell message that arrived into a list, oldest first."""
    kernel.shell_stream.flush()
    taken = []
    while kernel.msg_queue.qsize():
        taken.append(kernel.msg_queue.get_nowait())
    return taken


def put_back_shell_message(kernel: Any, entry: Any) -> None:
    """Return a taken message to the kernel's queue, for its main loop to handle later."""
    kernel.msg_queue.put_nowait(entry)


def comm_target(kernel: Any, entry: Any) -> tuple[str, str | None]:
    """``(msg_type, comm_id)`` of a queued shell message; raises when it cannot be parsed.

    Header and content are unpacked without ``deserialize``, whose replay check would reject
    the message when the kernel later dispatches it for real.
    """
    if not entry[2]:
        return "", None  # a callback the kernel queued for itself, not a message
    session = kernel.session
    _, frames = session.feed_identities(_queued_frames(entry), copy=False)
    msg_type = session.unpack(_bytes(frames[1])).get("msg_type")
    if msg_type not in COMM_MESSAGES:
        return msg_type, None
    return msg_type, session.unpack(_bytes(frames[4])).get("comm_id")


def queued_restore_request(kernel: Any, entry: Any, controls: set[str]) -> bool:
    """Whether a queued shell message is part of a page getting its widgets back.

    ``controls`` holds the widget control comms opened so far, as for the SUBSHELL tier.
    """
    if not entry[2]:
        return False
    session = kernel.session
    _, frames = session.feed_identities(_queued_frames(entry), copy=False)
    peek = {"header": session.unpack(_bytes(frames[1])), "content": _bytes(frames[4])}
    return _restores_widgets(session, peek, controls)


def handle_comm_message(kernel: Any, entry: Any) -> None:
    """Run the kernel's own handler for one queued message, under its parent header.

    ipykernel 6's info handlers are coroutines that await nothing; they run to their end here,
    on the blocked thread, since the kernel's event loop cannot run them now. A request gets
    the busy and idle status the kernel's dispatcher would give it: JupyterLab holds every
    other message of a new page until its kernel info request is idle (or 3 s). It runs in a
    copy of the calling thread's context: the parent header it sets (a context variable of the
    output streams on ipykernel >= 6.30) stays there, and the cell's output keeps the cell's.
    """
    contextvars.copy_context().run(_handle_in_this_context, kernel, entry)


def _handle_in_this_context(kernel: Any, entry: Any) -> None:
    session = kernel.session
    idents, frames = session.feed_identities(_queued_frames(entry), copy=False)
    msg = session.deserialize(frames, content=True, copy=False)
    kernel.set_parent(idents, msg, "shell")
    msg_type = msg["header"]["msg_type"]
    answered = msg_type.endswith("_request")  # its sender waits for its idle status too
    if answered:
        kernel._publish_status("busy", "shell", msg)
    try:
        result = kernel.shell_handlers[msg_type](kernel.shell_stream, idents, msg)
        if inspect.isawaitable(result):
            _finish_now(result)
    finally:
        if answered:
            kernel._publish_status("idle", "shell", msg)


def _finish_now(awaitable: Any) -> None:
    """Run a coroutine that never waits to its end; raise if it does wait."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration:
        return
    steps.close()
    raise RuntimeError("a shell handler waited on the kernel's blocked event loop")


def _queued_frames(entry: Any) -> Any:
    """The wire frames of a ``msg_queue`` entry ``(index, dispatch, (frames,))``."""
    return entry[2][0]


def _bytes(frame: Any) -> bytes:
    return frame.bytes if hasattr(frame, "bytes") else bytes(frame)


# IPython ------------------------------------------------------------------------------------


def _probe_error_line(shell: Any) -> None:
    _capabilities.require_attributes(shell, ("_showtraceback", "InteractiveTB", "set_custom_exc"))
    _capabilities.require_attributes(shell.InteractiveTB, ("get_exception_only",))
    inspect.signature(shell._showtraceback).bind("etype", "evalue", "stb")


def show_error_line(shell: Any, value: BaseException) -> list[str]:
    """Show ``value`` in the cell as one ``Type: message`` line (what ipykernel publishes)."""
    stb = shell.InteractiveTB.get_exception_only(type(value), value)
    if _capabilities.has("ipython", "error-line") or _passes(_probe_error_line, shell):
        shell._showtraceback(type(value), value, stb)
    else:
        print("".join(stb), end="", file=sys.stderr)
    return stb


def _probe_matchers_v2(shell: Any) -> None:
    from IPython.core.completer import SimpleCompletion, context_matcher  # noqa: F401

    _capabilities.require_attributes(shell.Completer, ("custom_matchers",))


def _probe_magic_arg_matchers(shell: Any) -> None:
    if not isinstance(shell.Completer.magic_arg_matchers, list):
        raise TypeError("Completer.magic_arg_matchers is not a list")


def add_line_completer(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    """Complete lines starting with ``magic`` (e.g. ``%jaxdbg``) with ``complete(line)``.

    IPython >= 8.6 gets a context matcher, older IPython a magic-argument matcher; both
    replace every other completion on such lines. Returns the undo.
    """
    if _passes(_probe_matchers_v2, shell):
        return _add_context_matcher(shell, magic, complete)
    return _add_magic_arg_matcher(shell, magic, complete)


def _add_context_matcher(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    from IPython.core.completer import SimpleCompletion, context_matcher

    @context_matcher()
    def matcher(context: Any) -> dict[str, Any]:
        line = context.text_until_cursor.lstrip()
        if not line.startswith(f"{magic} "):
            return {"completions": [], "suppress": False}
        found = [SimpleCompletion(text=m, type="jaxdbg") for m in complete(line)]
        return {"completions": found, "suppress": True}

    return _append_undoably(shell.Completer.custom_matchers, matcher)


def _add_magic_arg_matcher(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    completer = shell.Completer

    def matcher(line_buffer: str) -> list[str]:
        line = getattr(completer, "text_until_cursor", line_buffer).lstrip()
        return complete(line) if line.startswith(f"{magic} ") else []

    return _append_undoably(completer.magic_arg_matchers, matcher)


def _append_undoably(matchers: list[Any], matcher: Any) -> Callable[[], None]:
    matchers.append(matcher)

    def undo() -> None:
        if matcher in matchers:
            matchers.remove(matcher)

    return undo


def _probe_cell_names(shell: Any) -> None:
    compiler = shell.compile
    if not callable(getattr(compiler, "format_code_name", None)):
        _capabilities.require_parameters(compiler.get_code_name, ("raw_code", "number"))


_cell_files: dict[str, int] = {}


def remember_cell_file(shell: Any, raw_cell: str, number: int) -> None:
    """Note which file IPython compiles cell ``number`` to, where it cannot tell us later.

    IPython >= 8 answers :func:`cell_name` itself; IPython 7 under ipykernel names a cell's
    file after a hash of its source, so it is computed here, before the cell runs.
    """
    compiler = getattr(shell, "compile", None)
    if compiler is None or callable(getattr(compiler, "format_code_name", None)):
        return
    if _capabilities.has("ipython", "cell-names"):
        _cell_files[compiler.get_code_name(raw_cell, raw_cell, number)] = number


def remember_cell_history(shell: Any) -> None:
    """Note the files of the cells run so far (the running one included), as above.

    History keeps each cell without its trailing newlines, so both spellings are noted; the
    running cell's exact source is the code of the kernel's current request.
    """
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", [])
    for number, raw_cell in enumerate(history):
        if number:
            remember_cell_file(shell, raw_cell, number)
            remember_cell_file(shell, raw_cell + "\n", number)
    kernel = getattr(shell, "kernel", None)
    code = _request_code(kernel) if kernel is not None else None
    if code is not None and history:
        remember_cell_file(shell, code, len(history) - 1)


def _request_code(kernel: Any) -> str | None:
    try:
        code = kernel.get_parent("shell").get("content", {}).get("code")
    except (AttributeError, TypeError):
        return None
    return code if isinstance(code, str) else None


def cell_name(filename: str) -> str | None:
    """``In[3]`` for code IPython compiled from cell 3, else ``None``."""
    old_style = _OLD_CELL_FILE.match(filename)
    if old_style is not None:
        return f"In[{old_style.group(1)}]"
    if filename in _cell_files:
        return f"In[{_cell_files[filename]}]"
    compiler = getattr(running_shell(), "compile", None)
    format_code_name = getattr(compiler, "format_code_name", None)
    named = format_code_name(filename) if format_code_name is not None else None
    return named[1] if named is not None else None


def counts_cell_before_running(shell: Any) -> bool:
    """Whether ``execution_count`` already counts the running cell when ``pre_run_cell`` fires.

    IPython 9.8 moved the increment from after the cell to before this event.
    """
    import IPython

    return tuple(IPython.version_info[:2]) >= (9, 8)


# Load-time checks ---------------------------------------------------------------------------


def check_capabilities(shell: Any) -> None:
    """Record every private IPython/ipykernel name and signature this package relies on."""
    _capabilities.check(
        "ipython", "error-line", FEATURE_ERROR_LINE, lambda: _probe_error_line(shell)
    )
    _capabilities.check(
        "ipython",
        "completion",
        FEATURE_COMPLETION,
        lambda: _passes(_probe_matchers_v2, shell) or _probe_magic_arg_matchers(shell),
    )
    _capabilities.check(
        "ipython", "cell-names", FEATURE_CELL_NAMES, lambda: _probe_cell_names(shell)
    )
    kernel = getattr(shell, "kernel", None)
    if kernel is None:
        return
    _capabilities.check("ipykernel", "parent-header", FEATURE_PARENT, lambda: _probe_parent(kernel))
    _capabilities.check("ipykernel", "stdin", FEATURE_STDIN, lambda: _probe_stdin(kernel))
    if hasattr(kernel, "shell_channel_thread"):
        _capabilities.check(
            "ipykernel", "subshell-routing", FEATURE_SUBSHELL, lambda: _probe_subshell(kernel)
        )
        _capabilities.check(
            "ipykernel",
            "widget-restore",
            FEATURE_RESTORE,
            lambda: _probe_restore_routing(kernel),
        )
    else:
        _capabilities.check("ipykernel", "shell-pump", FEATURE_PUMP, lambda: _probe_pump(kernel))
        _capabilities.check(
            "ipykernel",
            "widget-restore",
            FEATURE_RESTORE,
            lambda: _probe_pump_restore(kernel),
        )


def turn_off(library: str, name: str, feature: str, reason: str) -> None:
    """Record a capability as failed at run time (e.g. the pump kept failing to parse)."""

    def fail() -> None:
        raise RuntimeError(reason)

    _capabilities.check(library, name, feature, fail)


def _passes(probe: Callable[[Any], Any], target: Any) -> bool:
    try:
        probe(target)
    except Exception:
        return False
    return True

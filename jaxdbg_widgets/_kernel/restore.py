"""SUBSHELL tier: what a reloaded page asks to get its widgets back goes to the debugger subshell.

The main shell is blocked at the breakpoint, so the shell-channel thread's receiver is wrapped:
a :data:`~jaxdbg_widgets._kernel.messages.RESTORE_MESSAGES` request addressed to the main shell
(and every message of a widget control comm opened that way) is re-addressed to the subshell,
re-signed and sent to it; everything else goes to the kernel's own router untouched.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import messages, subshells

SHELL_THREAD_TIMEOUT = 5.0


def probe(kernel: Any) -> None:
    """Raise unless the shell-channel thread's receiver and the subshell sockets are as known."""
    subshells.probe(kernel)
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
    messages.require_shell_handlers(kernel, messages.RESTORE_MESSAGES)


def route_widget_restore(
    kernel: Any, subshell_id: str, after: Callable[[], None]
) -> Callable[[], None]:
    """Send what a reloaded page asks to get its widgets back to ``subshell_id``; the undo.

    The handlers of those messages run ``after`` once done, so the cell keeps its parent header.
    """
    session = kernel.session
    receive = kernel.shell_channel_thread_main
    controls: set[str] = set()
    handlers = kernel.shell_handlers
    saved = {msg_type: handlers[msg_type] for msg_type in messages.RESTORE_MESSAGES}

    def route(msg: list[Any]) -> Any:
        readdressed = None
        with contextlib.suppress(Exception):  # as it came: the router logs what it cannot parse
            readdressed = readdress(session, msg, subshell_id, controls)
        if readdressed is None:
            return receive(msg)
        return _forward(kernel.shell_channel_thread, subshell_id, readdressed)

    def put_back() -> None:
        kernel.shell_stream.on_recv(receive, copy=False)

    def install() -> None:
        kernel.shell_stream.on_recv(route, copy=False)

    try:
        subshells.on_shell_channel_thread(kernel, install, SHELL_THREAD_TIMEOUT)
    except BaseException:
        kernel.shell_channel_thread.io_loop.add_callback(put_back)  # runs after a late install
        raise
    for msg_type, handler in saved.items():
        handlers[msg_type] = then(handler, after)

    def undo() -> None:
        handlers.update(saved)
        subshells.on_shell_channel_thread(kernel, put_back, SHELL_THREAD_TIMEOUT)

    return undo


def readdress(
    session: Any, msg: list[Any], subshell_id: str, controls: set[str]
) -> list[Any] | None:
    """``msg`` with ``subshell_id`` in its header when it restores widgets, else ``None``."""
    idents, frames = session.feed_identities(msg, copy=False)
    peek = session.deserialize(frames, content=False, copy=False)
    if not messages.restores_widgets(session, peek, controls):
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


def then(handler: Callable[..., Any], after: Callable[[], None]) -> Callable[..., Any]:
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

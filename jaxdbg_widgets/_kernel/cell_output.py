"""The running cell's IOPub output as it is sent, until the cell finishes.

Prints (ipykernel's output streams), ``display`` (IPython's display publisher) and the cell's
result (IPython's display hook) all leave through the kernel's one ``Session.send``; a listener
sees each message of the cell's own request once it is sent. IPython's ``post_run_cell``
event says the cell finished: the streams are flushed first, so its last prints are seen.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import parent
from jaxdbg_widgets._undo import once

Listener = Callable[[str, dict[str, Any]], None]
"""Called with each message's type and content."""

_lock = threading.Lock()
_listeners: dict[int, tuple[str, Listener]] = {}
_installed: dict[int, tuple[Any, Callable[..., Any]]] = {}
_keys = itertools.count()


def probe(kernel: Any) -> None:
    """Raise unless displays, results and the finished-cell event go where this module looks."""
    session = kernel.session
    _capabilities.require_parameters(session.send, ("stream", "msg_or_type", "content", "parent"))
    shell = kernel.shell
    _capabilities.require_attributes(shell, ("events", "display_pub", "displayhook"))
    _capabilities.require_attributes(shell.events, ("register", "unregister"))
    for name in ("display_pub", "displayhook"):
        if getattr(getattr(shell, name), "session", None) is not session:
            raise AttributeError(f"the shell's {name} does not send through the kernel's session")


def follow_cell(
    kernel: Any, on_message: Listener, on_end: Callable[[], None], request: str | None = None
) -> Callable[[], None]:
    """Call ``on_message`` for each output message of the cell ``request`` (by default the one
    running now) and ``on_end`` once the running cell finishes; the returned undo stops both
    early. Raise ``LookupError`` outside a cell."""
    request = request or parent.request_id(kernel)
    if request is None:
        raise LookupError("no cell is running")
    key = next(_keys)
    events = kernel.shell.events

    @once
    def stop() -> None:
        with _lock:
            _listeners.pop(key, None)
            if not _listeners and id(kernel.session) in _installed:
                _uninstall(kernel.session)
        events.unregister("post_run_cell", finished)

    def finished(_result: Any) -> None:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        stop()
        on_end()

    with _lock:
        _install(kernel.session)
        _listeners[key] = (request, on_message)
    events.register("post_run_cell", finished)
    return stop


def _install(session: Any) -> None:
    """Wrap ``session.send`` once, however many listeners follow cells."""
    if id(session) in _installed:
        return
    original = session.send

    def send(*args: Any, **kwargs: Any) -> Any:
        msg = original(*args, **kwargs)
        if isinstance(msg, dict) and _listeners:
            _tell(msg)
        return msg

    _installed[id(session)] = (session, original)
    session.send = send


def _uninstall(session: Any) -> None:
    _, original = _installed.pop(id(session))
    if getattr(original, "__self__", None) is session:
        del session.send  # the class's method again
    else:
        session.send = original


def _tell(msg: dict[str, Any]) -> None:
    """Hand ``msg`` to the listeners following the request it answers."""
    request = (msg.get("parent_header") or {}).get("msg_id")
    with _lock:
        listeners = [listen for wanted, listen in _listeners.values() if wanted == request]
    for listen in listeners:
        listen(msg.get("msg_type", ""), msg.get("content") or {})

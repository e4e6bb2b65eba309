"""A request type of our own on ipykernel's control channel, answered on its control thread.

An ipyparallel engine runs its ``%%px`` cell on the main thread; its control channel has a
thread of its own, so a handler registered there still answers while the cell is blocked at a
breakpoint. The kernel's ``control_handlers`` table and its ``session.send`` are ipykernel
internals, checked by :func:`probe`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets import _capabilities

LIBRARY = "ipykernel"
NAME = "control-handlers"
FEATURE = "breakpoints on ipyparallel engines answered from the notebook"


def probe(kernel: Any) -> None:
    """Raise unless ``kernel`` dispatches control requests through a table and can reply."""
    _capabilities.require_attributes(kernel, ("control_handlers", "session", "control_stream"))
    if not isinstance(kernel.control_handlers, dict):
        raise TypeError("the kernel's control_handlers is not a dict")
    _capabilities.require_attributes(kernel.session, ("send",))


def add(
    kernel: Any, request_type: str, reply_type: str, answer: Callable[[Any], dict[str, Any]]
) -> Callable[[], None]:
    """Answer every ``request_type`` control message with ``answer(content)`` as a
    ``reply_type`` message to its sender; returns the undo."""

    def handle(stream: Any, ident: Any, request: dict[str, Any]) -> None:
        reply = answer(request.get("content"))
        kernel.session.send(stream, reply_type, reply, request, ident)

    kernel.control_handlers[request_type] = handle

    def undo() -> None:
        if kernel.control_handlers.get(request_type) is handle:
            del kernel.control_handlers[request_type]

    return undo

"""The cell's parent header: which shell request the output of any thread belongs to."""

from __future__ import annotations

import contextvars
from typing import Any

from jaxdbg_widgets import _capabilities


def probe(kernel: Any) -> None:
    """Raise unless the kernel lets us read and restore the shell parent header."""
    _capabilities.require_attributes(kernel, ("get_parent", "set_parent", "_parent_ident"))
    _capabilities.require_parameters(kernel.set_parent, ("ident", "parent", "channel"))
    _capabilities.require_parameters(kernel.get_parent, ("channel",))
    if "shell" not in kernel._parent_ident:
        raise KeyError("kernel._parent_ident has no 'shell' entry")


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


def request_code(kernel: Any) -> str | None:
    """The code of the ``execute_request`` running now, or ``None``."""
    try:
        code = kernel.get_parent("shell").get("content", {}).get("code")
    except (AttributeError, TypeError):
        return None
    return code if isinstance(code, str) else None

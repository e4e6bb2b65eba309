"""Which shell messages are widget traffic, for both clickable tiers."""

from __future__ import annotations

import threading
from typing import Any

COMM_MESSAGES = frozenset({"comm_msg", "comm_close"})
CONTROL_TARGET = "jupyter.widget.control"
# What a reloaded page or a second tab sends to get its widgets back: kernel info (JupyterLab
# holds every other message until it is answered, or 3 s), the widget control comm and its
# ``request_states``, and the fallback ``comm_info_request`` with a ``request_state`` per widget.
RESTORE_MESSAGES = frozenset(
    {"kernel_info_request", "comm_info_request", "comm_open", "comm_msg", "comm_close"}
)
_pages_lock = threading.Lock()
_pages_seen = 0


def pages_restored() -> int:
    """How many times a page asked for the kernel's widgets back (a reload, a new tab)."""
    return _pages_seen


def _note_page() -> None:
    global _pages_seen
    with _pages_lock:
        _pages_seen += 1


def require_shell_handlers(kernel: Any, msg_types: frozenset[str]) -> None:
    """Raise ``KeyError`` unless the kernel has a callable shell handler for each type."""
    for msg_type in sorted(msg_types):
        if not callable(kernel.shell_handlers.get(msg_type)):
            raise KeyError(f"kernel.shell_handlers has no {msg_type!r} handler")


def restores_widgets(session: Any, peek: dict[str, Any], controls: set[str]) -> bool:
    """Whether a peeked shell message is part of a page getting its widgets back.

    ``controls`` holds the widget control comms opened so far; it is updated here.
    """
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
        _note_page()
        return True
    if msg_type == "comm_msg":
        asks = (content.get("data") or {}).get("method") == "request_state"
        if asks:
            _note_page()
        return asks
    return msg_type in ("kernel_info_request", "comm_info_request")


def as_bytes(frame: Any) -> bytes:
    """A zmq frame's (or a buffer's) bytes."""
    return frame.bytes if hasattr(frame, "bytes") else bytes(frame)

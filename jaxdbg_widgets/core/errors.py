"""Exceptions of the core runtime, and how to recover a host callback's own exception.

XLA turns any exception raised inside a host callback into a ``JaxRuntimeError`` whose
message holds the formatted Python traceback. The original exception object is kept here
(the last few only) so callers can re-raise it with its own type.
"""

from __future__ import annotations

import threading
import traceback
from collections import deque


class DebuggerQuit(Exception):
    """Raised by a debugger backend to stop the computation at a breakpoint."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or "the jaxdbg_widgets debugger was quit at a breakpoint; the computation was stopped"
        )


_RECENT: deque[BaseException] = deque(maxlen=32)
_RECENT_LOCK = threading.Lock()


def remember(exc: BaseException) -> None:
    """Keep ``exc``, raised inside a host callback, so it can be recovered later."""
    with _RECENT_LOCK:
        _RECENT.append(exc)


def _last_lines(exc: BaseException) -> set[str]:
    """How a traceback's final line may name ``exc``: module-qualified or by class name."""
    qualified = traceback.format_exception_only(type(exc), exc)[-1].strip()
    message = str(exc)
    short = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return {qualified, short}


def original_exception(error: BaseException) -> BaseException | None:
    """The exception a host callback raised that ``error`` (a ``JaxRuntimeError``) reports."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines or "callback" not in str(error).lower():
        return None
    with _RECENT_LOCK:
        candidates = list(_RECENT)
    for exc in reversed(candidates):
        if lines[-1] in _last_lines(exc):
            return exc
    return None


def reraise_original(error: BaseException) -> None:
    """Raise the callback's own exception behind ``error`` if there is one, else ``error``."""
    original = original_exception(error)
    if original is None:
        raise error
    raise original.with_traceback(original.__traceback__) from error

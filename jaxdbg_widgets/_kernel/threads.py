"""CPython's asynchronous exceptions: raise an exception in another thread when it runs Python.

The only use of :mod:`ctypes` in the package. The check runs at load (or at first use outside
the extension) and is recorded in the capability table; without it the callers fall back.
"""

from __future__ import annotations

import ctypes
from typing import Any

from jaxdbg_widgets import _capabilities

LIBRARY, NAME = "python", "async-exc"
FEATURE = "a quit or an interrupt reaches code running on another thread"


def probe() -> None:
    """Raise unless this interpreter exposes ``PyThreadState_SetAsyncExc`` through ctypes."""
    _capabilities.require_attributes(ctypes, ("pythonapi", "py_object", "c_ulong"))
    _capabilities.require_attributes(ctypes.pythonapi, ("PyThreadState_SetAsyncExc",))


def available() -> bool:
    """Whether asynchronous exceptions work here (checked once, then read from the table)."""
    if not _capabilities.was_checked(LIBRARY, NAME):
        _capabilities.check(LIBRARY, NAME, FEATURE, probe)
    return _capabilities.has(LIBRARY, NAME)


def raise_in(thread_id: int, error: type[BaseException]) -> bool:
    """Raise ``error`` in thread ``thread_id`` when it next runs Python; whether it was set."""
    if not available():
        return False
    return _set_async_exc(thread_id, ctypes.py_object(error)) == 1


def absorb_pending(error: type[BaseException]) -> None:
    """Take, on this thread, an ``error`` that :func:`raise_in` set and that is not raised yet.

    One Python call delivers it here, where it is caught. Clearing it with
    ``PyThreadState_SetAsyncExc(id, NULL)`` instead leaves CPython 3.11's "exception pending"
    flag set for good: every later call then pays for it, and any trace function (a debugger,
    coverage, the bounded checks at load) loops forever at its next call.
    """
    # not contextlib.suppress: its own Python calls could take the exception outside the guard
    try:  # noqa: SIM105
        _deliver()
    except error:
        pass


def _deliver() -> None:
    """Nothing: calling it runs the interpreter's check for pending exceptions."""


def _set_async_exc(thread_id: int, error: Any) -> int:
    return ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), error)

"""The signal wakeup fd: where CPython writes each signal's number as it arrives.

Replacing it lets a watcher thread see SIGINT at once while the main thread waits in C.
"""

from __future__ import annotations

import signal

from jaxdbg_widgets import _capabilities

LIBRARY, NAME = "python", "wakeup-fd"
FEATURE = "interrupts reach breakpoints on worker threads"


def probe() -> None:
    """Raise unless this platform has ``signal.set_wakeup_fd`` and ``SIGINT``."""
    _capabilities.require_attributes(signal, ("set_wakeup_fd", "SIGINT"))
    if not callable(signal.set_wakeup_fd):
        raise TypeError("signal.set_wakeup_fd is not callable")


def available() -> bool:
    """Whether the wakeup fd can be replaced (checked once, then read from the table)."""
    if not _capabilities.was_checked(LIBRARY, NAME):
        _capabilities.check(LIBRARY, NAME, FEATURE, probe)
    return _capabilities.has(LIBRARY, NAME)


def replace_wakeup_fd(fd: int) -> int:
    """Make ``fd`` the wakeup fd (main thread only); the fd it replaced, ``-1`` for none."""
    if not available():
        raise RuntimeError(f"the signal wakeup fd cannot be replaced here ({FEATURE} is off)")
    return signal.set_wakeup_fd(fd, warn_on_full_buffer=False)


def restore_wakeup_fd(previous: int) -> None:
    """Put back the wakeup fd :func:`replace_wakeup_fd` replaced."""
    signal.set_wakeup_fd(previous)

"""Whether the front end draws the debugger widget, remembered from one breakpoint to the next.

A displayed widget says ``{"type": "rendered"}`` when its view draws. Once one stayed silent for
the whole render timeout, no front end draws widgets here (a console, a client without the
widget manager): later hits, in the same cell and in later ones, go straight to the typed
prompt (or the headless policy) instead of waiting again. They still show the widget, and the
first acknowledgement from any of them brings the clickable widget back.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_silent = False


def widgets_unseen() -> bool:
    """Whether the last debugger widget shown went unacknowledged for the whole timeout."""
    with _lock:
        return _silent


def note_timeout() -> None:
    """A widget stayed silent for the whole render timeout."""
    global _silent
    with _lock:
        _silent = True


def note_rendered() -> None:
    """A widget acknowledged its view: the front end draws widgets again."""
    global _silent
    with _lock:
        _silent = False

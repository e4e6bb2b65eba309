"""The extension's own print log: collects from ``%load_ext jaxdbg`` on, shown by ``%jaxdbg log``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.notebook.printlog_display import PrintLog
from jaxdbg_widgets.notebook.printlog_saved import unfollow_all

_log: PrintLog | None = None


def session_log() -> PrintLog:
    """The log the extension keeps; raises RuntimeError when the extension is not loaded."""
    if _log is None:
        raise RuntimeError(
            "the print log is collected once the extension is loaded: %load_ext jaxdbg"
        )
    return _log


def install(_ip: Any) -> Callable[[], None]:
    """Start the session log; the undo stops it and drops it."""
    global _log
    _log = PrintLog()

    def undo() -> None:
        global _log
        unfollow_all()
        if _log is not None:
            _log.close()
        _log = None

    return undo


LOG_ACTIONS = ("show", "text", "clear")


def run(args: list[str]) -> None:
    """``log [show|text|clear]``: the widget, a plain-text table without times, or emptying it.

    Raises ValueError for bad usage.
    """
    if len(args) > 1 or (args and args[0] not in LOG_ACTIONS):
        raise ValueError(f"log takes one of {'|'.join(LOG_ACTIONS)}, got {' '.join(args)!r}")
    log = session_log()
    action = args[0] if args else "show"
    if action == "text":
        print(log.to_text(times=False))
    elif action == "clear":
        log.clear()
        print("print log cleared")
    else:
        from IPython.display import display

        display(log)

"""What ``%load_ext jaxdbg`` turns on for the debugger, undone exactly by unloading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.debugger import backend, cell_errors


def install(ip: Any) -> Callable[[], None]:
    """Register the ``jaxdbg`` backend; show debugger quits cleanly and NaN errors post-mortem."""
    undo_backend = backend.install(ip)
    try:
        undo_errors = cell_errors.install(ip)
    except BaseException:
        undo_backend()
        raise

    def undo() -> None:
        undo_errors()
        undo_backend()

    return undo

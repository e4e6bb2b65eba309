"""What ``%load_ext jaxdbg`` turns on for the debugger, undone exactly by unloading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.core import breakpoints
from jaxdbg_widgets.debugger.install import cell_errors
from jaxdbg_widgets.debugger.serve import backend


def install(ip: Any) -> Callable[[], None]:
    """Register the ``jaxdbg`` backend, route ``jax.debug.breakpoint`` through it, show debugger
    quits cleanly and NaN errors post-mortem."""
    undo_backend = backend.install(ip)
    try:
        undo_errors = cell_errors.install(ip)
    except BaseException:
        undo_backend()
        raise
    undo_route = breakpoints.route_jax_debug_breakpoint()

    def undo() -> None:
        undo_route()
        undo_errors()
        undo_backend()

    return undo

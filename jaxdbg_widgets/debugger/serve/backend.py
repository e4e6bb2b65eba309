"""The ``jaxdbg`` backend in JAX's debugger registry: one session per breakpoint hit, served
through the best front end this request can reach (widget clicks, typed lines, a script, or
the headless policy).

Breakpoints are served one at a time, whichever thread hits them
(:data:`jaxdbg_widgets.core.breakpoints.sessions`). "Continue all" skips the
remaining breakpoints of the same run (the same notebook cell; outside a kernel, until
:func:`new_run`), and so do quit, an interrupt or an error, since the computation stops
anyway. Quit raises :class:`~jaxdbg_widgets.core.errors.DebuggerQuit`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd, default_front_end
from jaxdbg_widgets.debugger.serve.hit import Runs, serve_hit

BACKEND_NAME = "jaxdbg"
PRIORITY = 10
runs = Runs()
"""The current run and the command history of this process's breakpoints."""


def new_run() -> None:
    """Start counting breakpoints afresh (and stop skipping them after "continue all")."""
    runs.new_run()


def make_backend(front_end: Callable[[], FrontEnd] = default_front_end) -> Callable[..., None]:
    """A JAX debugger backend ``fn(frames, thread_id, **kwargs)`` using ``front_end``."""

    def backend(frames: Sequence[Any], thread_id: int | None, **kwargs: Any) -> None:
        serve_hit(runs, frames, thread_id, kwargs, front_end)

    return backend


debugger_backend = make_backend()


def install(ip: Any = None) -> Callable[[], None]:
    """Register the backend as ``jaxdbg`` above JAX's CLI and Colab ones; return the undo."""
    return jax_registry.register(BACKEND_NAME, debugger_backend, PRIORITY)

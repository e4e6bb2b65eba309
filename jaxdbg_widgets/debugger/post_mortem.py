"""Post-mortem debugging of a ``FloatingPointError`` raised by JAX's NaN/Inf checks.

With ``jax_debug_nans`` or ``jax_debug_infs`` on, JAX re-runs a jitted function op by op
and raises ``FloatingPointError`` from the user's own frames. The cell error handler
(:mod:`jaxdbg_widgets.debugger.cell_errors`) hands such an error here: the user frames of
its traceback are served as one debugger session (widget, typed lines, a script or the
headless policy), then the cell shows the error in one line.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from jaxdbg_widgets.core import breakpoints
from jaxdbg_widgets.core.callsite import is_internal
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.frames import Frame, snapshot
from jaxdbg_widgets.debugger import scripts


def checks_on() -> bool:
    """Whether JAX's NaN or Inf checks are on (read from ``jax.config`` itself)."""
    import jax

    return bool(jax.config.jax_debug_nans or jax.config.jax_debug_infs)


def wants_post_mortem(value: BaseException) -> bool:
    """A ``FloatingPointError`` raised while the checks are on."""
    return isinstance(value, FloatingPointError) and checks_on()


def user_frames(tb: TracebackType | None) -> list[Frame]:
    """The user frames of a traceback, innermost first, as core's :class:`Frame`."""
    return [
        snapshot(frame, lineno=lineno)
        for frame, lineno in reversed(list(traceback.walk_tb(tb)))
        if not is_internal(frame)
    ]


def debug(
    error: BaseException,
    tb: TracebackType | None,
    backend: Callable[[Sequence[Any], Any], None],
) -> None:
    """Serve the user frames of ``tb`` with ``backend``; a quit or an interrupt just ends it.

    A ``with script(...)`` block that ``error`` left with commands unused answers here.
    """
    frames = user_frames(tb)
    if not frames:
        return
    with (
        scripts.resumed_for(error),
        contextlib.suppress(DebuggerQuit, KeyboardInterrupt),
        breakpoints.sessions.serve(),
    ):
        backend(frames, None)

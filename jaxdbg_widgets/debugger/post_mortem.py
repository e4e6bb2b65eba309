"""Post-mortem debugging of a ``FloatingPointError`` raised by JAX's NaN/Inf checks.

With ``jax_debug_nans`` or ``jax_debug_infs`` on, JAX re-runs a jitted function op by op
and raises ``FloatingPointError`` from the user's own frames. The cell error handler
(:mod:`jaxdbg_widgets.debugger.cell_errors`) hands such an error here: the user frames of
its traceback are served as one debugger session (widget, typed lines, a script or the
headless policy), then the cell shows the error in one line.
"""

from __future__ import annotations

import contextlib
import inspect
import linecache
import traceback
from collections.abc import Callable, Sequence
from types import FrameType, TracebackType
from typing import Any

from jaxdbg_widgets.core import breakpoints
from jaxdbg_widgets.core.callsite import is_internal
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.frames import Frame
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
        _frame(frame, lineno)
        for frame, lineno in reversed(list(traceback.walk_tb(tb)))
        if not is_internal(frame)
    ]


def _frame(frame: FrameType, lineno: int) -> Frame:
    module_level = frame.f_locals is frame.f_globals
    source, offset = _source(frame, lineno)
    line = linecache.getline(frame.f_code.co_filename, lineno, frame.f_globals)
    return Frame(
        filename=frame.f_code.co_filename,
        locals=frame.f_globals if module_level else dict(frame.f_locals),
        globals=frame.f_globals,
        code_context=[line] if line else None,
        source=source,
        lineno=lineno,
        offset=offset,
        function=frame.f_code.co_name,
        internal=False,
    )


def _source(frame: FrameType, lineno: int) -> tuple[list[str], int | None]:
    """The enclosing block's source lines and the 0-based offset of ``lineno``."""
    try:
        lines, start = inspect.getsourcelines(frame)
    except (OSError, TypeError):
        return [], None
    source = "".join(lines).split("\n")
    offset = lineno - max(start, 1)
    return (source, offset) if 0 <= offset < len(source) else ([], None)


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

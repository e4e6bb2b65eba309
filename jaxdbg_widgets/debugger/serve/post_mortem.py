"""Post-mortem debugging of a ``FloatingPointError`` raised by JAX's NaN/Inf checks.

With ``jax_debug_nans`` or ``jax_debug_infs`` on, JAX re-runs a jitted function op by op
and raises ``FloatingPointError`` from the user's own frames. The cell error handler
(:mod:`jaxdbg_widgets.debugger.install.cell_errors`) hands such an error here: where someone can
answer (a widget, a typed prompt, a script, or the ``script`` headless policy) the user frames
of its traceback are served as one post-mortem session, then the cell shows the error in one
line. An error that carries the origin of its NaN (``%jaxdbg nans on``) is served at that
origin instead, the equation's inputs and outputs as locals. Where no one can (an unattended run: nbclient, nbval), no post-mortem opens, nothing is
added to the output and the cell shows JAX's traceback as JAX raised it.
"""

from __future__ import annotations

import contextlib
import contextvars
import traceback
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any

from jaxdbg_widgets.core import breakpoints
from jaxdbg_widgets.core.callsite import is_internal
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.frames import Frame, snapshot
from jaxdbg_widgets.debugger.serve import headless, scripts

_opened: contextvars.ContextVar[bool] = contextvars.ContextVar("jaxdbg_post_mortem", default=False)


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


def origin_frames(error: BaseException) -> list[Frame]:
    """The frames at the origin an error's NaN search found (``%jaxdbg nans on``), else none."""
    frames = getattr(error, "debugger_frames", None)
    return list(frames()) if callable(frames) else []


def someone_can_answer() -> bool:
    """Whether a person (a widget or a typed prompt) or the ``script`` headless policy answers."""
    from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier

    if detect_tier() is not Tier.HEADLESS:
        return True
    return headless.current_policy() is headless.HeadlessPolicy.SCRIPT


def opened() -> bool:
    """Whether the session being served is a post-mortem (so it is named one, not a breakpoint)."""
    return _opened.get()


@contextlib.contextmanager
def _serving() -> Iterator[None]:
    token = _opened.set(True)
    try:
        yield
    finally:
        _opened.reset(token)


def debug(
    error: BaseException,
    tb: TracebackType | None,
    backend: Callable[[Sequence[Any], Any], None],
    answerable: Callable[[], bool] | None = None,
) -> bool:
    """Serve the user frames of ``tb`` with ``backend``; whether a post-mortem was opened.

    It opens where a ``with script(...)`` block that ``error`` left with commands unused, a
    queued script, or ``answerable()`` (default :func:`someone_can_answer`) says someone
    answers. A quit or an interrupt just ends it.
    """
    frames = origin_frames(error) or user_frames(tb)
    if not frames:
        return False
    with scripts.resumed_for(error):
        if scripts.active() is None and not (answerable or someone_can_answer)():
            return False
        with (
            _serving(),
            contextlib.suppress(DebuggerQuit, KeyboardInterrupt),
            breakpoints.sessions.serve(),
        ):
            backend(frames, None)
    return True

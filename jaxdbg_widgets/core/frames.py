"""Frame capture for breakpoints: user frames, their locals and globals, cheaply.

Captured at trace time. Only JAX tracers (directly, or inside small containers of a
function's locals) become staged operands; every other value is kept as it is, and a
module-level namespace is kept by reference, never walked, so trace time does not grow
with the size of a notebook's namespace. No IPython import here.
"""

from __future__ import annotations

import inspect
import linecache
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import FrameType
from typing import Any

import jax

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core._jax_internals import Tracer
from jaxdbg_widgets.core.callsite import is_internal

CONTAINER_WALK_LIMIT = 1000
"""Lists, tuples and dicts longer than this are kept whole, never walked for tracers."""


@dataclass(frozen=True)
class Frame:
    """One Python frame as a debugger sees it (JAX's ``DebuggerFrame`` fields and more)."""

    filename: str
    locals: dict[str, Any]
    globals: dict[str, Any]
    code_context: list[str] | None
    source: list[str]
    lineno: int
    offset: int | None
    function: str
    internal: bool
    batched: Mapping[str, BatchedLeaves] = field(default_factory=dict)


@dataclass(frozen=True)
class BatchedLeaves:
    """Which leaves of a local's pytree carry the ``vmap`` batch on their axis 0."""

    treedef: Any
    flags: tuple[bool, ...]

    def element(self, value: Any, index: int) -> Any:
        """``value`` with each batched leaf narrowed to element ``index``; other leaves kept."""
        leaves = self.treedef.flatten_up_to(value)
        narrowed = [
            leaf[index] if flag else leaf for leaf, flag in zip(leaves, self.flags, strict=True)
        ]
        return jax.tree_util.tree_unflatten(self.treedef, narrowed)


@dataclass(frozen=True)
class _StagedLocal:
    """A local whose value holds tracers: its tree and which leaves are staged."""

    name: str
    treedef: Any
    leaves: tuple[Any, ...]
    staged: tuple[bool, ...]


@dataclass(frozen=True)
class CapturedFrames:
    """Frames captured at trace time plus the tracers to stage so locals get runtime values."""

    frames: tuple[Frame, ...]
    staged: tuple[tuple[_StagedLocal, ...], ...]
    operands: tuple[Any, ...]

    def rebuild(self, values: Sequence[Any], batched: Sequence[bool] = ()) -> list[Frame]:
        """Frames with runtime ``values`` in place of the tracers, innermost first.

        ``batched`` flags the values carrying a leading batch axis; each frame's ``batched``
        maps the locals holding one to which of their leaves do.
        """
        runtime = iter(values)
        flags = iter(batched) if batched else None
        rebuilt = []
        for frame, staged_locals in zip(self.frames, self.staged, strict=True):
            if not staged_locals:
                rebuilt.append(frame)
                continue
            local_values = dict(frame.locals)
            batched_locals = {}
            for staged in staged_locals:
                leaves, leaf_flags = [], []
                for leaf, is_staged in zip(staged.leaves, staged.staged, strict=True):
                    leaves.append(next(runtime) if is_staged else leaf)
                    leaf_flags.append(is_staged and flags is not None and bool(next(flags)))
                local_values[staged.name] = jax.tree_util.tree_unflatten(staged.treedef, leaves)
                if any(leaf_flags):
                    batched_locals[staged.name] = BatchedLeaves(staged.treedef, tuple(leaf_flags))
            rebuilt.append(replace(frame, locals=local_values, batched=batched_locals))
        return rebuilt


def _too_big(value: Any) -> bool:
    return isinstance(value, (list, tuple, dict)) and len(value) > CONTAINER_WALK_LIMIT


def _kept_whole(value: Any) -> bool:
    """Leaves of the walk: big containers, and iterators (generators) JAX would warn about."""
    return _too_big(value) or isinstance(value, Iterator)


def _staged_local(name: str, value: Any) -> _StagedLocal | None:
    if isinstance(value, Tracer):
        return _StagedLocal(name, jax.tree_util.tree_structure(0), (value,), (True,))
    if _too_big(value):
        return None
    try:
        leaves, treedef = jax.tree_util.tree_flatten(value, is_leaf=_kept_whole)
    except Exception:
        return None
    staged = tuple(isinstance(leaf, Tracer) for leaf in leaves)
    if not any(staged):
        return None
    return _StagedLocal(name, treedef, tuple(leaves), staged)


def _source(frame: FrameType, lineno: int) -> tuple[list[str], int | None]:
    """The enclosing block's source lines and the 0-based offset of ``lineno``."""
    try:
        lines, start = inspect.getsourcelines(frame)
    except (OSError, TypeError):
        return [], None
    source = "".join(lines).split("\n")
    offset = lineno - max(start, 1)
    if not 0 <= offset < len(source):
        return [], None
    return source, offset


def snapshot(frame: FrameType, *, lineno: int | None = None, internal: bool = False) -> Frame:
    """One live frame as a :class:`Frame`: its source, its locals and its globals by reference.

    ``lineno`` is the line to show (a traceback's, for post-mortem), else the frame's own.
    """
    lineno = frame.f_lineno if lineno is None else lineno
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
        internal=internal,
    )


def _frame(frame: FrameType, internal: bool) -> tuple[Frame, tuple[_StagedLocal, ...]]:
    captured = snapshot(frame, internal=internal)
    if captured.locals is captured.globals:
        return captured, ()
    staged = (_staged_local(name, value) for name, value in captured.locals.items())
    return captured, tuple(s for s in staged if s is not None)


def _first_caller(start: FrameType | None) -> FrameType | None:
    """The first frame from ``start`` outwards that is not this package's own."""
    frame = start
    while frame is not None and (frame.f_globals.get("__name__") or "").startswith(
        "jaxdbg_widgets"
    ):
        frame = frame.f_back
    return frame


def _caller_frames(start: FrameType | None) -> list[FrameType]:
    """The stack from ``start`` outwards, skipping this package's own frames at the top."""
    frames = []
    frame = _first_caller(start)
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def capture(*, filter_frames: bool = True, num_frames: int | None = None) -> CapturedFrames:
    """Capture the caller's stack, innermost first, dropping internal frames if asked."""
    selected = []
    for frame in _caller_frames(sys._getframe(1)):
        internal = is_internal(frame)
        if filter_frames and internal:
            continue
        selected.append((frame, internal))
        if num_frames is not None and len(selected) >= num_frames:
            break
    captured = [_frame(frame, internal) for frame, internal in selected]
    frames = tuple(frame for frame, _ in captured)
    staged = tuple(s for _, s in captured)
    operands = tuple(
        leaf
        for staged_locals in staged
        for s in staged_locals
        for leaf, is_staged in zip(s.leaves, s.staged, strict=True)
        if is_staged
    )
    return CapturedFrames(frames, staged, operands)


@dataclass(frozen=True)
class JaxFrames:
    """Frames exactly as ``jax.debug.breakpoint`` captures them: JAX's own ``DebuggerFrame``s.

    For backends that are not this package's (JAX's ``cli``, ``colab``, a user's): every frame
    JAX keeps, each local namespace walked for tracers as JAX walks it.
    """

    treedef: Any
    operands: tuple[Any, ...]

    def rebuild(self, values: Sequence[Any], batched: Sequence[bool] = ()) -> list[Any]:
        """The frames with runtime ``values`` in place of the tracers, innermost first."""
        del batched
        return jax.tree_util.tree_unflatten(self.treedef, list(values))


def capture_as_jax(
    *, filter_frames: bool = True, num_frames: int | None = None
) -> JaxFrames | None:
    """Capture the caller's stack as JAX's breakpoint does; ``None`` where this JAX can't."""
    start = _first_caller(sys._getframe(1))
    if start is None:
        return None
    frames = jx.jax_breakpoint_frames(start, filter_frames=filter_frames, num_frames=num_frames)
    if frames is None:
        return None
    operands, treedef = jax.tree_util.tree_flatten(frames)
    return JaxFrames(treedef, tuple(operands))

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from types import FrameType
from typing import Any

import jax

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
    batched: frozenset[str] = field(default_factory=frozenset)


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

        ``batched`` flags the values carrying a leading batch axis; the names of locals that
        hold one are recorded in each frame's ``batched``.
        """
        runtime = iter(values)
        flags = iter(batched) if batched else None
        rebuilt = []
        for frame, staged_locals in zip(self.frames, self.staged, strict=True):
            if not staged_locals:
                rebuilt.append(frame)
                continue
            local_values = dict(frame.locals)
            batched_names = set()
            for staged in staged_locals:
                leaves = []
                for leaf, is_staged in zip(staged.leaves, staged.staged, strict=True):
                    if not is_staged:
                        leaves.append(leaf)
                        continue
                    leaves.append(next(runtime))
                    if flags is not None and next(flags):
                        batched_names.add(staged.name)
                local_values[staged.name] = jax.tree_util.tree_unflatten(staged.treedef, leaves)
            rebuilt.append(replace(frame, locals=local_values, batched=frozenset(batched_names)))
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


def _source(frame: FrameType) -> tuple[list[str], int | None]:
    """The enclosing block's source lines and the 0-based offset of the current line."""
    try:
        lines, start = inspect.getsourcelines(frame)
    except (OSError, TypeError):
        return [], None
    source = "".join(lines).split("\n")
    offset = frame.f_lineno - max(start, 1)
    if not 0 <= offset < len(source):
        return [], None
    return source, offset


def _frame(frame: FrameType, internal: bool) -> tuple[Frame, tuple[_StagedLocal, ...]]:
    module_level = frame.f_locals is frame.f_globals
    local_values = frame.f_globals if module_level else dict(frame.f_locals)
    staged = ()
    if not module_level:
        staged = tuple(
            s
            for s in (_staged_local(name, value) for name, value in local_values.items())
            if s is not None
        )
    source, offset = _source(frame)
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno, frame.f_globals)
    captured = Frame(
        filename=frame.f_code.co_filename,
        locals=local_values,
        globals=frame.f_globals,
        code_context=[line] if line else None,
        source=source,
        lineno=frame.f_lineno,
        offset=offset,
        function=frame.f_code.co_name,
        internal=internal,
    )
    return captured, staged


def _caller_frames(start: FrameType | None) -> list[FrameType]:
    """The stack from ``start`` outwards, skipping this package's own frames at the top."""
    frames = []
    frame = start
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    while frames and (frames[0].f_globals.get("__name__") or "").startswith("jaxdbg_widgets"):
        frames.pop(0)
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

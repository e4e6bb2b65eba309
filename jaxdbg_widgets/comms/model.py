"""The communication map: every collective of a compiled program, its bytes, axes, line and loop.

A pure model built from the read HLO (:mod:`jaxdbg_widgets.comms.hlo`) and what the compiled
program says about its arguments; the views draw it. A *step* is one call of the compiled
function: collectives inside loops count once per iteration where XLA writes the trip count.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.comms.cost import member_traffic, sent_per_device
from jaxdbg_widgets.comms.groups import AxesSpan, axes_span, pair_span
from jaxdbg_widgets.comms.hlo import Frame, HloCollective, HloModuleText, Loop, Unread
from jaxdbg_widgets.comms.hlo_syntax import file_name, source_metadata, unescape
from jaxdbg_widgets.core.callsite import is_internal_file
from jaxdbg_widgets.memory.program import ProgramMemory
from jaxdbg_widgets.memory.units import human_bytes

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


@dataclass(frozen=True)
class SourceLine:
    """Where a collective comes from; ``origin`` says which record gave it.

    ``origin`` is ``"stack frames"`` (the module's tables), ``"source metadata"``
    (``source_file``/``source_line``), ``"op_name"`` (only the JAX operation's name is known).
    """

    file: str
    line: int | None
    function: str
    origin: str
    callers: tuple[tuple[str, int, str], ...] = ()

    @property
    def shown_line(self) -> int | None:
        """The line as the user counts it (see :func:`cell_files.cell_line`)."""
        return None if self.line is None else cell_files.cell_line(self.file, self.line)

    @property
    def label(self) -> str:
        """``line 41 of model.py``, or the op name when no line is known."""
        if self.line is None:
            return f"op {self.function}" if self.function else "an unknown line"
        return f"line {self.shown_line} of {cell_files.short_name(self.file) or '?'}"


@dataclass(frozen=True)
class Collective:
    """One collective: bytes per participating device for one execution, axes, line, loops."""

    index: int
    name: str
    kind: str
    asynchronous: bool
    result: str
    operand: str
    result_bytes: int
    group_size: int
    group_count: int
    span: AxesSpan
    sent: int
    received: int
    source: SourceLine
    op_name: str
    loops: tuple[Loop, ...]
    dimension: int | None
    dtype: str = ""
    result_dims: tuple[int, ...] = ()
    operand_dims: tuple[int, ...] | None = None

    @property
    def in_loop(self) -> bool:
        return bool(self.loops)

    @property
    def executions(self) -> int | None:
        """Executions per step: the product of the trip counts, None when one is not written."""
        trips = [loop.trip_count for loop in self.loops]
        return None if any(t is None for t in trips) else math.prod(trips)  # type: ignore[misc]

    @property
    def sent_per_step(self) -> int:
        """Bytes sent per step; a loop with no written trip count counts once."""
        return self.sent * (self.executions or 1)


@dataclass(frozen=True)
class LineGroup:
    """The collectives of one source line."""

    source: SourceLine
    collectives: tuple[int, ...]
    sent_per_step: int


@dataclass(frozen=True)
class ArgumentSharding:
    """An argument or output of the program: path, shape, dtype and the sharding it has."""

    path: str
    shape: tuple[int, ...]
    dtype: str
    spec: str
    sharding: Any = field(repr=False, compare=False)


@dataclass(frozen=True)
class Mismatch:
    """An argument whose current sharding is not the one the program expects (a copy per call)."""

    path: str
    current: str
    expected: str


@dataclass(frozen=True)
class RematWarning:
    """One of XLA's "Involuntary full rematerialization" warnings, tied to a line if it names one."""

    text: str
    source: SourceLine | None


REPLICATED_FLAG_BYTES = 16 * 2**20
"""A buffer at least this large held whole by every device is flagged: 16 MiB, a 2048 x 2048
float32 (docs/communication.md says why)."""

_REPLICATING = ("all-gather", "all-reduce")
FLAGS_LISTED = 5


@dataclass(frozen=True)
class ReplicatedBuffer:
    """A large buffer every device of the program ends up holding whole and alike: the result
    of an all-gather or all-reduce over every device, or a fully replicated output.

    ``count`` collectives of ``kind`` on one line give this buffer; ``kind`` is ``output`` for
    the program output named by ``path``.
    """

    array: str
    nbytes: int
    kind: str
    count: int = 1
    source: SourceLine | None = None
    path: str = ""

    @property
    def sentence(self) -> str:
        """``replicated: f32[4096,4096] 64 MiB on every device, from an all-gather at line 41
        of model.py``."""
        if self.kind == "output":
            origin = f"the program's output {self.path}"
        else:
            what = f"an {self.kind}" if self.count == 1 else _plural(self.kind, self.count)
            origin = f"from {what} at {self.source.label if self.source else 'an unknown line'}"
        return f"replicated: {self.array} {human_bytes(self.nbytes)} on every device, {origin}"


@dataclass(frozen=True)
class MeshInfo:
    """The mesh the program's arguments use: axis names, sizes and device ids in mesh order."""

    axis_names: tuple[str, ...]
    shape: tuple[int, ...]
    device_ids: tuple[int, ...]
    axis_types: tuple[str, ...] = ()
    mesh: Any = field(default=None, repr=False, compare=False)


def axis_type_names(mesh: Any) -> tuple[str, ...]:
    """Each axis's type of a ``jax.sharding.Mesh`` (``Explicit``, ``Auto``, ``Manual``), empty
    where this JAX's meshes have none."""
    return tuple(str(getattr(t, "name", t)) for t in getattr(mesh, "axis_types", None) or ())


@dataclass(frozen=True)
class CommunicationModel:
    """Every collective of one compiled program, grouped by line and totalled per axis and device.

    ``device_sent`` holds bytes sent per step by each device of ``device_ids`` (partition order).
    """

    name: str
    partitions: int
    instructions: int
    collectives: tuple[Collective, ...]
    unread: tuple[Unread, ...]
    lines: tuple[LineGroup, ...]
    axis_totals: tuple[tuple[str, int], ...]
    device_ids: tuple[int, ...]
    device_sent: tuple[int, ...]
    mesh: MeshInfo | None
    inputs: tuple[ArgumentSharding, ...] = ()
    outputs: tuple[ArgumentSharding, ...] = ()
    mismatches: tuple[Mismatch, ...] = ()
    memory: ProgramMemory | None = None
    remat: tuple[RematWarning, ...] = ()
    notes: tuple[str, ...] = ()
    has_frame_tables: bool = True
    replicated: tuple[ReplicatedBuffer, ...] = ()

    def on_line(self, group: LineGroup) -> list[Collective]:
        return [self.collectives[i] for i in group.collectives]

    def summary(self, limit: int = 5) -> list[str]:
        """One sentence per (kind, axes, line), largest first: what moves, how much, from where;
        then the large buffers every device ends up holding whole (:class:`ReplicatedBuffer`)."""
        flags = [flag.sentence for flag in self.replicated[:FLAGS_LISTED]]
        if len(self.replicated) > FLAGS_LISTED:
            flags.append(f"and {len(self.replicated) - FLAGS_LISTED} more replicated buffers")
        if not self.collectives:
            return ["no collectives: every device works on its own data", *flags]
        buckets: dict[tuple[str, str, SourceLine], list[Collective]] = {}
        for c in self.collectives:
            buckets.setdefault((c.kind, c.span.label, c.source), []).append(c)
        ranked = sorted(buckets.items(), key=lambda kv: -sum(c.sent_per_step for c in kv[1]))
        lines = [_sentence(kind, group) for (kind, _, _), group in ranked[:limit]]
        if len(ranked) > limit:
            lines.append(f"and {len(ranked) - limit} more kinds of collective on other lines")
        return lines + flags


def build_communication_map(
    module: HloModuleText,
    *,
    mesh: MeshInfo | None = None,
    inputs: Sequence[ArgumentSharding] = (),
    outputs: Sequence[ArgumentSharding] = (),
    mismatches: Sequence[Mismatch] = (),
    memory: ProgramMemory | None = None,
    remat_texts: Sequence[str] = (),
    notes: Sequence[str] = (),
    kind: type[CommunicationModel] = CommunicationModel,
    replicated_bytes: int = REPLICATED_FLAG_BYTES,
) -> CommunicationModel:
    """The map of a read module; ``mesh`` names the axes partitions lie on (row-major).

    ``kind`` is the class built: the pure model by default, its displayable subclass for users.
    Buffers of at least ``replicated_bytes`` that every device holds whole are flagged.
    """
    partitions = module.partitions * module.replicas
    if mesh is not None and math.prod(mesh.shape) != partitions:
        notes = [
            *notes,
            f"the arguments' mesh has {math.prod(mesh.shape)} devices, the program "
            f"{partitions}; axes are not named",
        ]
        mesh = None
    span_cache: dict[tuple[str, str], AxesSpan] = {}
    collectives = [
        _collective(index, hlo, module, mesh, span_cache)
        for index, hlo in enumerate(module.collectives)
    ]
    sent = sent_per_device(
        (
            (hlo, c.sent, c.executions or 1)
            for hlo, c in zip(module.collectives, collectives, strict=True)
        ),
        partitions,
    )
    ids = mesh.device_ids if mesh is not None else tuple(range(partitions))
    all_notes = list(notes)
    if not module.has_frame_tables and collectives:
        all_notes.append(
            "this XLA writes no stack-frame tables: lines come from source metadata or op_name"
        )
    lineless = sum(1 for c in collectives if c.source.line is None)
    if lineless:
        all_notes.append(
            f"{lineless} of {len(collectives)} collectives name no line of your code; "
            "they are listed by JAX operation (op_name)"
        )
    if any(c.in_loop and c.executions is None for c in collectives):
        all_notes.append("a loop without a trip count in the HLO counts once per step")
    if mesh is None and collectives:
        all_notes.append("no mesh among the arguments: groups are shown by partition id")
    return kind(
        name=module.name,
        partitions=partitions,
        instructions=module.instructions,
        collectives=tuple(collectives),
        unread=module.unread,
        lines=_lines(collectives),
        axis_totals=_axis_totals(collectives),
        device_ids=ids,
        device_sent=tuple(int(v) for v in sent),
        mesh=mesh,
        inputs=tuple(inputs),
        outputs=tuple(outputs),
        mismatches=tuple(mismatches),
        memory=memory,
        remat=tuple(_remat(text, module.frames) for text in remat_texts),
        notes=tuple(all_notes),
        has_frame_tables=module.has_frame_tables,
        replicated=replicated_buffers(collectives, outputs, partitions, replicated_bytes),
    )


def replicated_buffers(
    collectives: Sequence[Collective],
    outputs: Sequence[ArgumentSharding],
    partitions: int,
    threshold: int,
) -> tuple[ReplicatedBuffer, ...]:
    """Buffers of at least ``threshold`` bytes that all ``partitions`` devices hold whole and
    alike, largest first: each all-gather or all-reduce whose one group is every device
    (counted once per result and line) and each fully replicated output."""
    if partitions < 2:
        return ()
    grouped: dict[tuple[str, str, SourceLine], list[Collective]] = {}
    for c in collectives:
        whole = c.group_count == 1 and c.group_size == partitions
        if c.kind in _REPLICATING and whole and c.result_bytes >= threshold:
            grouped.setdefault((c.result, c.kind, _line_key(c.source)), []).append(c)
    found = [
        ReplicatedBuffer(array, group[0].result_bytes, kind, len(group), source)
        for (array, kind, source), group in grouped.items()
    ]
    for output in outputs:
        size = _array_bytes(output)
        if size is not None and size >= threshold and _fully_replicated(output.sharding):
            found.append(ReplicatedBuffer(_array_text(output), size, "output", path=output.path))
    return tuple(sorted(found, key=lambda flag: -flag.nbytes))


def _fully_replicated(sharding: Any) -> bool:
    """Whether ``sharding`` puts the whole array on each of several devices."""
    replicated = getattr(sharding, "is_fully_replicated", False)
    return bool(replicated) and len(getattr(sharding, "device_set", ())) > 1


def _array_bytes(entry: ArgumentSharding) -> int | None:
    """The whole array's bytes (``ml_dtypes`` knows bfloat16 and the float8 types), None for a
    dtype neither numpy nor ``ml_dtypes`` knows."""
    import ml_dtypes

    dtype = getattr(ml_dtypes, entry.dtype, entry.dtype)
    try:
        itemsize = np.dtype(dtype).itemsize
    except TypeError:
        return None
    return math.prod(entry.shape) * itemsize


_HLO_PREFIX = {"float": "f", "bfloat": "bf", "int": "s", "uint": "u", "complex": "c"}


def _array_text(entry: ArgumentSharding) -> str:
    """``f32[4096,4096]``, written as the HLO writes the collectives' buffers."""
    match = re.fullmatch(r"(b?float|u?int|complex)(\d+)", entry.dtype)
    dtype = _HLO_PREFIX[match.group(1)] + match.group(2) if match else entry.dtype
    if entry.dtype == "bool":
        dtype = "pred"
    return f"{dtype}[{','.join(map(str, entry.shape))}]"


def source_line(
    frames: dict[int, Frame],
    frame_id: int | None,
    source_file: str | None,
    source_line_number: int | None,
    op_name: str,
) -> SourceLine:
    """The user's line: the stack frame, else the source metadata, else the op name.

    A frame inside this package is never the user's line (JAX names the lowering call when
    it rewrote the operation while lowering): the next outer frame is used, else the op name.
    """
    frame = frames.get(frame_id) if frame_id is not None else None
    for _ in range(len(frames)):
        if frame is None or not _ours(frame.file):
            break
        frame = frames.get(frame.parent) if frame.parent is not None else None
    if frame is not None and not _ours(frame.file):
        return SourceLine(
            frame.file, frame.line, frame.function, "stack frames", _callers(frames, frame)
        )
    if source_file and source_line_number and not _ours(source_file):
        return SourceLine(source_file, source_line_number, "", "source metadata")
    return SourceLine("", None, op_name, "op_name")


@functools.lru_cache(maxsize=4096)
def _ours(path: str) -> bool:
    """Whether ``path`` is a file of this package (never a line of the user's program); a
    program names a few files thousands of times, so the answer is kept."""
    return os.path.abspath(path).startswith(_PACKAGE)


def _callers(frames: dict[int, Frame], frame: Frame) -> tuple[tuple[str, int, str], ...]:
    """The user's frames calling ``frame``, innermost first: frames of this package, Python and
    installed libraries (IPython running a magic, say) are left out, as the debugger does."""
    found, seen, parent = [], set(), frame.parent
    while parent is not None and parent not in seen and parent in frames and len(found) < 8:
        seen.add(parent)
        outer = frames[parent]
        if not _ours(outer.file) and not _library(outer.file):
            found.append((outer.file, outer.line, outer.function))
        parent = outer.parent
    return tuple(found)


@functools.lru_cache(maxsize=4096)
def _library(path: str) -> bool:
    """Whether ``path`` is a file of Python or an installed library on this machine."""
    return is_internal_file(path)


def _collective(
    index: int,
    hlo: HloCollective,
    module: HloModuleText,
    mesh: MeshInfo | None,
    cache: dict[tuple[str, str], AxesSpan],
) -> Collective:
    key = ("pairs" if hlo.kind == "collective-permute" else "groups", hlo.groups_text)
    if key not in cache:
        if mesh is None:
            cache[key] = AxesSpan((), hlo.groups.shape[1] <= 1 or hlo.kind == "collective-permute")
        elif hlo.kind == "collective-permute":
            cache[key] = pair_span(hlo.groups, mesh.shape, mesh.axis_names)
        else:
            cache[key] = axes_span(hlo.groups, mesh.shape, mesh.axis_names)
    sent, received = member_traffic(hlo)
    permute = hlo.kind == "collective-permute"
    operand = hlo.operands[0].text if hlo.operands and hlo.operands[0] is not None else ""
    return Collective(
        index=index,
        name=hlo.name,
        kind=hlo.kind,
        asynchronous=hlo.asynchronous,
        result=", ".join(a.text for a in hlo.result),
        operand=operand,
        result_bytes=hlo.result_bytes,
        group_size=2 if permute else int(hlo.groups.shape[1]),
        group_count=int(hlo.groups.shape[0]),
        span=cache[key],
        sent=sent,
        received=received,
        source=source_line(
            module.frames, hlo.stack_frame_id, hlo.source_file, hlo.source_line, hlo.op_name
        ),
        op_name=hlo.op_name,
        loops=module.loops_around(hlo.computation),
        dimension=hlo.dimension,
        dtype=hlo.result[0].dtype,
        result_dims=hlo.result[0].dims if len(hlo.result) == 1 else (),
        operand_dims=hlo.operands[0].dims if len(hlo.operands) == 1 and hlo.operands[0] else None,
    )


def _lines(collectives: list[Collective]) -> tuple[LineGroup, ...]:
    grouped: dict[SourceLine, list[Collective]] = {}
    for c in collectives:
        grouped.setdefault(_line_key(c.source), []).append(c)
    lines = [
        LineGroup(source, tuple(c.index for c in group), sum(c.sent_per_step for c in group))
        for source, group in grouped.items()
    ]
    return tuple(
        sorted(lines, key=lambda g: (g.source.file, g.source.line or 0, g.source.function))
    )


def _line_key(source: SourceLine) -> SourceLine:
    """Collectives of one line share a group even when their call paths differ."""
    return SourceLine(source.file, source.line, source.function, source.origin, source.callers[:1])


def _axis_totals(collectives: list[Collective]) -> tuple[tuple[str, int], ...]:
    totals: dict[str, int] = {}
    for c in collectives:
        label = c.span.label if c.span.axes else f"groups of {c.group_size}"
        totals[label] = totals.get(label, 0) + c.sent_per_step
    return tuple(sorted(totals.items(), key=lambda kv: -kv[1]))


def _plural(kind: str, count: int) -> str:
    return f"{count} {kind}" + ("" if count == 1 else "s")


def _sentence(kind: str, group: list[Collective]) -> str:
    """``3 all-gathers (12 MiB per device per step) on axis 'fsdp', from line 41 of model.py``."""
    first = group[0]
    total = sum(c.sent_per_step for c in group)
    axes = first.span
    if axes.axes:
        where = f"on axis {axes.label}" if len(axes.axes) == 1 else f"on axes {axes.label}"
        if not axes.whole:
            where += f" ({axes.note})"
    else:
        where = f"in groups of {first.group_size}"
    loop = ""
    executions = {c.executions for c in group if c.in_loop}
    if executions:
        counts = sorted(str(e) if e is not None else "?" for e in executions)
        loop = f", in a loop of {'/'.join(counts)} iterations"
    return (
        f"{_plural(kind, len(group))} ({human_bytes(total)} per device per step) {where}"
        f"{loop}, from {first.source.label}"
    )


def _remat(text: str, frames: dict[int, Frame]) -> RematWarning:
    """A warning tied to the stack frame or source line its HLO metadata names, if any."""
    op_name, source_file, line, frame = source_metadata(text)
    filename = None if source_file is None else file_name(source_file)
    source = source_line(frames, frame, filename, line, unescape(op_name or ""))
    known = source.line is not None or source.function
    return RematWarning(text.strip(), source if known else None)

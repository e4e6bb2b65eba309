"""Why a program's peak memory is what it is: the buffers live at the peak, by source line.

A pure model built from a compiled program's HLO text and XLA's memory analysis: no rendering
and no device data. Every device of an SPMD program runs the same per-device program, so one
report holds for each of them.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass

from jaxdbg_widgets.comms.hlo import Frame, read_hlo
from jaxdbg_widgets.comms.model import SourceLine, source_line
from jaxdbg_widgets.memory.assignment import Assignment
from jaxdbg_widgets.memory.liveness import TABLE, Buffer, liveness
from jaxdbg_widgets.memory.schedule import Instruction, Schedule, read_schedule
from jaxdbg_widgets.memory.units import human_bytes

AGREEMENT = 0.05  # the largest relative gap to XLA's own figure this report calls agreement
GAPS = "between buffers (XLA's alignment and packing)"
"""The line that holds the peak's bytes no buffer does: XLA's alignment and packing."""


@dataclass(frozen=True)
class PeakBuffer:
    """One array live at the peak: where it was made, its shape, bytes and role."""

    name: str
    source: SourceLine
    shape: tuple[int, ...]
    dtype: str
    nbytes: int
    kind: str
    op_name: str


@dataclass(frozen=True)
class LineShare:
    """The peak bytes one source line holds, their share of the peak, which buffers (indices
    into the report's ``buffers``) and the line's code where its file can be read."""

    source: SourceLine
    nbytes: int
    share: float
    buffers: tuple[int, ...]
    code: str = ""


@dataclass(frozen=True)
class Fit:
    """Whether the peak fits a device of ``capacity`` bytes, and the bytes to spare or missing."""

    capacity: int
    peak: int

    @property
    def fits(self) -> bool:
        return self.peak <= self.capacity

    @property
    def margin(self) -> int:
        return self.capacity - self.peak


@dataclass(frozen=True)
class PeakReport:
    """One compiled program's peak per device, the buffers behind it, and XLA's own numbers."""

    name: str
    peak_bytes: int
    xla_peak_bytes: int | None
    buffers: tuple[PeakBuffer, ...]
    lines: tuple[LineShare, ...]
    timeline: tuple[int, ...]
    peak_step: int
    devices: tuple[int, ...]
    flops: float | None
    fit: Fit | None
    notes: tuple[str, ...]
    laid_out: bool = False  # bytes counted where XLA's buffer assignment put them

    @property
    def gap_bytes(self) -> int:
        """Peak bytes no listed buffer holds: alignment and packing in XLA's layout."""
        return max(0, self.peak_bytes - sum(b.nbytes for b in self.buffers))

    @property
    def agreement(self) -> float | None:
        """Our peak over XLA's, or None where XLA gives no figure."""
        if not self.xla_peak_bytes:
            return None
        return self.peak_bytes / self.xla_peak_bytes

    @property
    def agrees(self) -> bool | None:
        ratio = self.agreement
        return None if ratio is None else abs(ratio - 1) <= AGREEMENT


def build_report(
    name: str,
    hlo_text: str,
    xla_peak: int | None,
    *,
    devices: tuple[int, ...] = (),
    flops: float | None = None,
    capacity: int | None = None,
    notes: tuple[str, ...] = (),
    layout: tuple[Assignment, int] | None = None,
) -> PeakReport:
    """The report of one compiled program from its text (``Compiled.as_text()``) and XLA's peak.

    ``layout`` is XLA's buffer assignment with the bytes of the arguments and outputs (less
    those aliased): each step then counts the temporaries where XLA put them. Without it the
    live buffers are counted side by side, which misses XLA's alignment and packing.
    """
    schedule = read_schedule(hlo_text)
    assignment, fixed = layout if layout is not None else (None, None)
    live = liveness(schedule, assignment, fixed)
    frames = read_hlo(hlo_text).frames
    at_peak = sorted(live.holding_at(live.peak_step), key=lambda b: (-b.nbytes, b.id))
    buffers = tuple(_peak_buffer(b, frames, schedule) for b in at_peak)
    peak = live.peak_bytes
    more = list(notes)
    if not schedule.scheduled:
        more.append("the module is not scheduled: the instruction order is as written")
    if xla_peak is None:
        more.append("XLA gave no memory analysis here: the peak is this reader's estimate only")
    elif xla_peak and abs(peak / xla_peak - 1) > AGREEMENT:
        more.append(
            f"this estimate ({human_bytes(peak)}) differs from XLA's ({human_bytes(xla_peak)}) "
            f"by more than {AGREEMENT:.0%}"
        )
    return PeakReport(
        name=name,
        peak_bytes=peak,
        xla_peak_bytes=xla_peak,
        buffers=buffers,
        lines=_lines(buffers, peak),
        timeline=live.timeline,
        peak_step=live.peak_step,
        devices=devices,
        flops=flops,
        fit=Fit(capacity, max(peak, xla_peak or 0)) if capacity is not None else None,
        notes=tuple(more),
        laid_out=layout is not None,
    )


def _made_by(inst: Instruction, schedule: Schedule, depth: int = 4) -> Instruction:
    """The instruction whose metadata names where ``inst``'s result was made: ``inst`` itself,
    or, for a call XLA wrapped without metadata (older XLA's ``parallel_*`` calls on CPU), the
    root of the computation it calls, else that computation's first instruction with a line."""
    if inst.source_line is not None or inst.op_name or not inst.called or depth == 0:
        return inst
    body = schedule.computations.get(inst.called[0], ())
    root = next((i for i in body if i.root), None)
    if root is not None:
        made = _made_by(root, schedule, depth - 1)
        if made.source_line is not None:
            return made
    return next((i for i in body if i.source_line is not None), inst)


def _peak_buffer(buffer: Buffer, frames: dict[int, Frame], schedule: Schedule) -> PeakBuffer:
    inst = buffer.instruction
    if buffer.kind == "argument":
        source = SourceLine("", None, inst.op_name or inst.name, "op_name")
    elif buffer.kind == TABLE:
        source = SourceLine("", None, "tuple tables (pointers to a tuple's arrays)", "layout")
    else:
        made = _made_by(inst, schedule)
        source = source_line(
            frames, made.stack_frame_id, made.source_file, made.source_line, made.op_name
        )
        if source.line is None and not inst.op_name and buffer.reader is not None:
            read = buffer.reader  # XLA made it with no metadata: where it is used instead
            used = source_line(
                frames, read.stack_frame_id, read.source_file, read.source_line, read.op_name
            )
            source = SourceLine(used.file, used.line, used.function, "its first reader")
    return PeakBuffer(
        name=inst.name,
        source=source,
        shape=buffer.array.dims,
        dtype=buffer.array.dtype,
        nbytes=buffer.nbytes,
        kind=buffer.kind,
        op_name=inst.op_name,
    )


def _lines(buffers: tuple[PeakBuffer, ...], peak: int) -> tuple[LineShare, ...]:
    """Buffers grouped by the line that made them, the largest share first."""
    grouped: dict[tuple[str, int | None, str], list[int]] = {}
    for index, b in enumerate(buffers):
        key = (b.source.file, b.source.line, b.source.function if b.source.line else b.kind)
        grouped.setdefault(key, []).append(index)
    shares = []
    for group in grouped.values():
        total = sum(buffers[i].nbytes for i in group)
        first = buffers[group[0]]
        source = first.source
        if source.line is None and first.kind == "argument":
            source = SourceLine("", None, "arguments", "op_name")
        code = linecache.getline(source.file, source.line).strip() if source.line else ""
        share = total / peak if peak else 0.0
        shares.append(LineShare(source, total, share, tuple(group), code))
    gap = peak - sum(b.nbytes for b in buffers)
    if gap > 0:
        shares.append(LineShare(SourceLine("", None, GAPS, "layout"), gap, gap / peak, ()))
    return tuple(sorted(shares, key=lambda s: (-s.nbytes, s.source.file, s.source.line or 0)))


@dataclass(frozen=True)
class PeakSet:
    """Reports of one or more variants of a program, compiled for the same arguments."""

    reports: tuple[PeakReport, ...]

    def __getitem__(self, name: str) -> PeakReport:
        for report in self.reports:
            if report.name == name:
                return report
        raise KeyError(name)

    @property
    def report(self) -> PeakReport:
        """The first (for one function, the only) report."""
        return self.reports[0]

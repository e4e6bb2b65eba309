"""The peak report as plain JSON for its page view (``js/peak.js``): per variant its peak,
XLA's figure, FLOPs and fit, the source lines with their bytes, share, buffers and code, the
buffers live at the peak and the timeline. The texts are the text view's, so the three views
read alike. What is carried is bounded, so a program of thousands of buffers and steps still
makes a small output."""

from __future__ import annotations

from jaxdbg_widgets.memory.peak import LineShare, PeakBuffer, PeakReport, PeakSet
from jaxdbg_widgets.memory.peak_schema import (
    PeakBufferRow,
    PeakFit,
    PeakLine,
    PeakVariant,
    PeakView,
)
from jaxdbg_widgets.memory.peak_text import agreement_text, fit_text, where
from jaxdbg_widgets.memory.units import human_bytes

LINES = 40
"""Source lines carried per variant, the largest first."""
LINE_BUFFERS = 30
"""Buffers carried per line, the largest first."""
TOP_BUFFERS = 50
"""Buffers listed as live at the peak, the largest first."""
POINTS = 400
"""Points of the timeline at most: past that, each point is the fullest step of its stretch."""


def peak_view(peaks: PeakSet) -> PeakView:
    """Every variant of ``peaks`` as the JSON the page view draws."""
    return {"variants": [variant_view(report) for report in peaks.reports]}


def variant_view(report: PeakReport) -> PeakVariant:
    """One variant: its figures, lines, carried buffers and timeline."""
    lines = report.lines[:LINES]
    carried = sorted(
        set(range(min(TOP_BUFFERS, len(report.buffers))))
        | {i for line in lines for i in line.buffers[:LINE_BUFFERS]}
    )
    position = {index: at for at, index in enumerate(carried)}
    return {
        "name": report.name,
        "peak": report.peak_bytes,
        "peak_text": human_bytes(report.peak_bytes),
        "xla_peak": report.xla_peak_bytes or None,
        "xla_text": human_bytes(report.xla_peak_bytes) if report.xla_peak_bytes else "not reported",
        "agreement": agreement_text(report),
        "agrees": report.agrees,
        "flops": report.flops,
        "flops_text": _gflops(report.flops),
        "devices": list(report.devices),
        "fit": _fit(report),
        "lines": [line_row(line, position) for line in lines],
        "more_lines": len(report.lines) - len(lines),
        "buffers": [buffer_row(report.buffers[i]) for i in carried],
        "top": min(TOP_BUFFERS, len(report.buffers)),
        "more_buffers": max(0, len(report.buffers) - TOP_BUFFERS),
        "timeline": timeline_points(report.timeline),
        "steps": len(report.timeline),
        "peak_step": report.peak_step,
        "notes": list(report.notes),
    }


def line_row(line: LineShare, position: dict[int, int]) -> PeakLine:
    """One source line's row; ``position`` maps a report's buffer index to its carried one."""
    return {
        "label": where(line.source),
        "bytes": line.nbytes,
        "size": human_bytes(line.nbytes),
        "share": line.share,
        "code": line.code,
        "buffers": [position[i] for i in line.buffers[:LINE_BUFFERS]],
        "more": max(0, len(line.buffers) - LINE_BUFFERS),
    }


def buffer_row(buffer: PeakBuffer) -> PeakBufferRow:
    """One buffer's row: bytes, kind, ``f32[8,512]`` and the line that made it."""
    return {
        "bytes": buffer.nbytes,
        "size": human_bytes(buffer.nbytes),
        "kind": buffer.kind,
        "shape": f"{buffer.dtype}[{','.join(map(str, buffer.shape))}]",
        "line": where(buffer.source),
    }


def timeline_points(timeline: tuple[int, ...], points: int = POINTS) -> list[tuple[int, int]]:
    """``[step, bytes in use]`` for every step, or for the fullest step of each of ``points``
    equal stretches (the first where two tie), so the peak's step is always one of them."""
    count = len(timeline)
    if count <= points:
        return [(step, value) for step, value in enumerate(timeline)]
    out = []
    for i in range(points):
        start, stop = i * count // points, (i + 1) * count // points
        step = max(range(start, stop), key=lambda s: (timeline[s], -s))
        out.append((step, timeline[step]))
    return out


def _gflops(flops: float | None) -> str:
    return f"{flops / 1e9:.2f} GFLOPs" if flops is not None else "FLOPs not reported"


def _fit(report: PeakReport) -> PeakFit | None:
    if report.fit is None:
        return None
    return {"capacity": report.fit.capacity, "fits": report.fit.fits, "text": fit_text(report.fit)}

"""The peak-memory report as plain text: the peak, its buffers, its lines and its timeline."""

from __future__ import annotations

import os

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.comms.model import SourceLine
from jaxdbg_widgets.memory.peak import Fit, PeakReport, PeakSet
from jaxdbg_widgets.memory.units import human_bytes

TOP = 12  # buffers and lines listed per report
_BARS = " ▁▂▃▄▅▆▇█"


def render_peak_text(peaks: PeakSet) -> str:
    """Every report, with a side-by-side table first when there are several variants."""
    parts = [variants_table(peaks)] if len(peaks.reports) > 1 else []
    parts.extend(report_text(r) for r in peaks.reports)
    return "\n\n".join(parts)


def variants_table(peaks: PeakSet) -> str:
    """Peak bytes and FLOPs of each variant, one row each."""
    rows = ["variant | peak per device | XLA's peak | GFLOPs"]
    for r in peaks.reports:
        xla = human_bytes(r.xla_peak_bytes) if r.xla_peak_bytes else "not reported"
        flops = f"{r.flops / 1e9:.2f}" if r.flops is not None else "not reported"
        rows.append(f"{r.name} | {human_bytes(r.peak_bytes)} | {xla} | {flops}")
    return "\n".join(rows)


def report_text(r: PeakReport) -> str:
    """One program's report."""
    lines = [f"{r.name}: peak {human_bytes(r.peak_bytes)} per device{_devices(r)}"]
    lines.append(agreement_text(r))
    if r.fit is not None:
        lines.append(fit_text(r.fit))
    lines.append("by source line:")
    for share in r.lines[:TOP]:
        lines.append(
            f"  {share.share:6.1%}  {human_bytes(share.nbytes):>10}  {where(share.source)}"
        )
        if share.code:
            lines.append(f"{'':22}{share.code[:100]}")
    lines.append("buffers live at the peak, largest first:")
    for b in r.buffers[:TOP]:
        shape = f"{b.dtype}[{','.join(map(str, b.shape))}]"
        lines.append(f"  {human_bytes(b.nbytes):>10}  {b.kind:<9} {shape:<22} {where(b.source)}")
    if len(r.buffers) > TOP:
        lines.append(f"  ... and {len(r.buffers) - TOP} more")
    lines.append(f"timeline: {sparkline(r.timeline, r.peak_step)}")
    lines.extend(f"note: {n}" for n in r.notes)
    return "\n".join(lines)


def fit_text(fit: Fit) -> str:
    """``fits in 24.0 MiB: 1.00 MiB spare`` or ``does NOT fit in 24.0 MiB: 17.0 MiB over``."""
    verdict = "fits" if fit.fits else "does NOT fit"
    spare = "spare" if fit.fits else "over"
    return f"{verdict} in {human_bytes(fit.capacity)}: {human_bytes(abs(fit.margin))} {spare}"


def where(source: SourceLine) -> str:
    """``model.py:42 (mlp)`` or ``In[3]:2 (step)`` for a notebook cell, or the operation's name
    where no line is known."""
    if source.line is None:
        return source.function or "unknown line"
    function = f" ({source.function})" if source.function else ""
    name = cell_files.cell_name(source.file) or os.path.basename(source.file)
    return f"{name}:{source.shown_line}{function}"


def sparkline(timeline: tuple[int, ...], peak_step: int, width: int = 60) -> str:
    """Bytes in use through the program in ``width`` characters, the peak's step marked ``^``."""
    if not timeline:
        return "(no steps)"
    top = max(timeline) or 1
    count = min(width, len(timeline))
    chunks = [
        max(timeline[i * len(timeline) // count : (i + 1) * len(timeline) // count] or [0])
        for i in range(count)
    ]
    bars = "".join(_BARS[round(v / top * (len(_BARS) - 1))] for v in chunks)
    mark = peak_step * count // len(timeline)
    return f"{bars}\n          {' ' * mark}^ peak at step {peak_step} of {len(timeline)}"


def _devices(r: PeakReport) -> str:
    return f" (devices {', '.join(map(str, r.devices))})" if r.devices else ""


def agreement_text(r: PeakReport) -> str:
    """Whether the peak agrees with XLA's, or that XLA gives no figure here."""
    if r.agreement is None:
        return "XLA's memory analysis: not reported on this backend"
    word = "agrees with" if r.agrees else "DIFFERS from"
    return f"{word} XLA's memory analysis ({human_bytes(r.xla_peak_bytes or 0)}, ratio {r.agreement:.3f})"

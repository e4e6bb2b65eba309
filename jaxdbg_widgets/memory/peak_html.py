"""The peak-memory report as static HTML: deterministic bytes (no ids, no times) for saved
notebooks and nbval."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from jaxdbg_widgets.memory.peak import LineShare, PeakReport, PeakSet
from jaxdbg_widgets.memory.peak_text import TOP, agreement_text, variants_table, where
from jaxdbg_widgets.memory.units import human_bytes


def render_peak_html(peaks: PeakSet) -> str:
    """Every report as tables and a bar timeline, in one ``div``."""
    parts = ['<div class="jdw-peak">']
    if len(peaks.reports) > 1:
        parts.append(_table(variants_table(peaks)))
    parts.extend(_report(r) for r in peaks.reports)
    parts.append("</div>")
    return "".join(parts)


def _table(text: str) -> str:
    rows = [row.split(" | ") for row in text.splitlines()]
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f"<table><tr>{head}</tr>{body}</table>"


def _report(r: PeakReport) -> str:
    out = [f"<h4>{escape(r.name)}: peak {escape(human_bytes(r.peak_bytes))} per device</h4>"]
    out.append(f"<p>{escape(agreement_text(r))}</p>")
    if r.fit is not None:
        word = "fits" if r.fit.fits else "does not fit"
        out.append(
            f"<p>{word} in {escape(human_bytes(r.fit.capacity))} "
            f"({escape(human_bytes(abs(r.fit.margin)))} {'spare' if r.fit.fits else 'over'})</p>"
        )
    out.append("<p>by source line (open one for its buffers and code):</p>")
    out.extend(_line(r, share) for share in r.lines[:TOP])
    out.append("<p>buffers live at the peak, largest first:</p>")
    out.append(_buffers(r, range(min(TOP, len(r.buffers)))))
    out.append(_timeline(r))
    out.extend(f"<p>note: {escape(n)}</p>" for n in r.notes)
    return "".join(out)


def _line(r: PeakReport, share: LineShare) -> str:
    """One line as a ``details`` element: its share in the summary, its code and buffers inside."""
    summary = (
        f"{share.share:.1%} &middot; {escape(human_bytes(share.nbytes))} &middot; "
        f"{escape(where(share.source))}"
    )
    code = f"<pre>{escape(share.code)}</pre>" if share.code else ""
    inside = _buffers(r, share.buffers) if share.buffers else "<p>(bytes no buffer holds)</p>"
    return f"<details><summary>{summary}</summary>{code}{inside}</details>"


def _buffers(r: PeakReport, indices: Iterable[int]) -> str:
    rows = "".join(
        f"<tr><td>{escape(human_bytes(b.nbytes))}</td><td>{escape(b.kind)}</td>"
        f"<td>{escape(b.dtype)}[{','.join(map(str, b.shape))}]</td>"
        f"<td>{escape(where(b.source))}</td></tr>"
        for b in (r.buffers[i] for i in indices)
    )
    return f"<table><tr><th>bytes</th><th>kind</th><th>shape</th><th>line</th></tr>{rows}</table>"


def _timeline(r: PeakReport, width: int = 300, height: int = 40) -> str:
    """An SVG of the bytes in use per step, the peak's step in red."""
    if not r.timeline:
        return ""
    top = max(r.timeline) or 1
    step = width / len(r.timeline)
    bars = "".join(
        f'<rect x="{i * step:.2f}" y="{height - v / top * height:.2f}" width="{step:.2f}" '
        f'height="{v / top * height:.2f}" fill="{"#c00" if i == r.peak_step else "#69c"}"/>'
        for i, v in enumerate(r.timeline)
    )
    return f'<svg width="{width}" height="{height}" role="img">{bars}</svg>'

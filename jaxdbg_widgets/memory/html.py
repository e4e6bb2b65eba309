"""The static memory map: deterministic, self-contained HTML for saved notebooks and nbconvert.

The same map always gives the same bytes; every string is escaped; colours and tooltips are
inline so viewers that drop ``<style>`` still show the heatmap. The leaf table lists the largest
leaves only (the widget lists them all).
"""

from __future__ import annotations

from html import escape
from typing import Any

from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.schema import MemoryView
from jaxdbg_widgets.memory.units import human_bytes
from jaxdbg_widgets.memory.view import leaf_rows, memory_view, process_line

LEAF_ROWS = 50
LABEL_BYTES_LIMIT = 64

_T = "div.jdw-mem table"
STYLE = (
    ".jdw-mem{font-family:var(--jp-ui-font-family,sans-serif);"
    "font-size:var(--jp-ui-font-size1,13px);color:var(--jp-ui-font-color1,#1f1f1f)}"
    ".jdw-mem-head{font-weight:bold;margin:0 0 4px}"
    ".jdw-mem-scroll{overflow:auto;max-height:640px;max-width:100%}"
    f"{_T}{{border-collapse:collapse;margin:4px 0;font-size:inherit;color:inherit;border:none}}"
    f"{_T} tr,{_T} tr:hover{{background:transparent}}"
    f"{_T}.jdw-mem-heat td{{min-width:3ch;padding:1px 3px;text-align:center;"
    "font-family:var(--jp-code-font-family,monospace);white-space:nowrap;"
    "border:1px solid var(--jp-border-color1,#bdbdbd)}"
    f"{_T} th{{font-weight:normal;color:var(--jp-ui-font-color2,#616161);padding:2px 6px;"
    "text-align:left;border:none;background:transparent;white-space:nowrap}"
    f"{_T}.jdw-mem-leaves td{{padding:1px 6px;text-align:left;border:none;white-space:nowrap;"
    "border-bottom:1px solid var(--jp-border-color2,#e0e0e0)}"
    f"{_T}.jdw-mem-leaves td.jdw-mem-num{{text-align:right}}"
    f"{_T}.jdw-mem-leaves tr.jdw-mem-flag td{{background:rgba(230,81,0,0.18)}}"
    ".jdw-mem-legend{display:flex;align-items:center;gap:6px;font-size:smaller}"
    ".jdw-mem-bar{display:inline-block;width:12em;height:0.9em;"
    "border:1px solid var(--jp-border-color1,#bdbdbd)}"
    ".jdw-mem-note{color:var(--jp-ui-font-color2,#616161);font-size:smaller;margin:2px 0}"
)


def render_html(memory: MemoryLayout) -> str:
    """The map as one HTML fragment with its own ``<style>``."""
    return html_from_view(memory_view(memory))


def html_from_view(view: MemoryView) -> str:
    """HTML for a view model (see :func:`jaxdbg_widgets.memory.view.memory_view`)."""
    head = (
        "memory map · "
        + escape(view["source"])
        + " · "
        + " · ".join(escape(p) for p in view["summary"])
    )
    parts = [
        '<div class="jdw-mem">',
        f"<style>{STYLE}</style>",
        f'<div class="jdw-mem-head">{head}</div>',
        '<div class="jdw-mem-scroll">',
        _heatmap(view),
        "</div>",
        _legend(view),
        *(_note(line) for line in _device_notes(view)),
        _program(view["program"]),
        _leaves(view),
        *(_note(line) for line in view["notes"]),
        "</div>",
    ]
    return "".join(parts)


def _heatmap(view: dict[str, Any]) -> str:
    grid, devices = view["grid"], view["devices"]
    at = {(r, c): devices[i] for r, c, i in grid["cells"]}
    show_bytes = len(devices) <= LABEL_BYTES_LIMIT
    rows = []
    if grid["title"] or grid["col_label"]:
        corner = "<th></th>" if grid["row_label"] else ""
        label = escape(grid["title"]) + (
            f" · {escape(grid['col_label'])} →" if grid["col_label"] else ""
        )
        rows.append(f'<tr>{corner}<th colspan="{grid["cols"]}">{label}</th></tr>')
    for r in range(grid["rows"]):
        cells = []
        if r == 0 and grid["row_label"]:
            cells.append(
                f'<th rowspan="{grid["rows"]}" style="writing-mode:vertical-rl">'
                f"{escape(grid['row_label'])} →</th>"
            )
        for c in range(grid["cols"]):
            device = at.get((r, c))
            cells.append("<td></td>" if device is None else _device_cell(device, show_bytes))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="jdw-mem-heat">{"".join(rows)}</table>'


def _device_cell(device: dict[str, Any], show_bytes: bool) -> str:
    title = escape("\n".join(device["tooltip"]))
    label = str(device["id"]) + (f"<br>{escape(device['human'])}" if show_bytes else "")
    style = f"background:{device['color']};color:{device['text']}"
    return f'<td style="{style}" title="{title}">{label}</td>'


def _legend(view: dict[str, Any]) -> str:
    legend = view["legend"]
    low, mid, high = (escape(t) for t in legend["ticks"])
    gradient = ",".join(legend["colors"])
    return (
        '<div class="jdw-mem-legend">'
        f"<span>{low}</span>"
        f'<span class="jdw-mem-bar" style="background:linear-gradient(to right,{gradient})"'
        f' title="{mid} at the middle"></span>'
        f"<span>{high}</span><span>bytes per device</span></div>"
    )


def _device_notes(view: dict[str, Any]) -> list[str]:
    per_process = process_line(view)
    lines = [] if per_process is None else [per_process]
    lines.append(view["limits"])
    return lines


def _program(program: dict[str, Any] | None) -> str:
    if program is None:
        return ""
    rows = "".join(
        f'<tr><td>{escape(label)}</td><td class="jdw-mem-num">{escape(human)}</td></tr>'
        for label, _, human in program["rows"]
    )
    peak = (
        f'<tr><td><b>peak estimate</b></td><td class="jdw-mem-num"><b>'
        f"{escape(program['peak'][1])}</b></td></tr>"
    )
    notes = "".join(_note(line) for line in program["notes"])
    return (
        '<div class="jdw-mem-head">XLA memory analysis, per device</div>'
        f'<table class="jdw-mem-leaves">{rows}{peak}</table>{notes}'
    )


def _leaves(view: dict[str, Any]) -> str:
    leaves = sorted(
        leaf_rows(view), key=lambda leaf: (-leaf["per_device"], -leaf["total"], leaf["path"])
    )
    shown = leaves[:LEAF_ROWS]
    header = "".join(
        f"<th>{h}</th>"
        for h in (
            "path",
            "shape",
            "dtype",
            "spec",
            "shard",
            "copies",
            "per device",
            "on all devices",
        )
    )
    rows = "".join(_leaf_row(leaf) for leaf in shown)
    more = (
        _note(f"the {len(shown)} largest of {len(leaves):,} leaves; the widget lists all")
        if len(leaves) > len(shown)
        else ""
    )
    flag = _note("highlighted: " + view["flag_note"]) if view["flag_note"] else ""
    return f'<table class="jdw-mem-leaves"><tr>{header}</tr>{rows}</table>{flag}{more}'


def _leaf_row(leaf: dict[str, Any]) -> str:
    flagged = ' class="jdw-mem-flag"' if leaf["flagged"] else ""
    cells = [
        escape(leaf["path"]),
        escape(leaf["shape"]),
        escape(leaf["dtype"]),
        escape(leaf["spec"]),
        escape(leaf["shard_shape"]),
        f"{leaf['replication']}" + (" ⚠" if leaf["flagged"] else ""),
        escape(human_bytes(leaf["per_device"])),
        escape(human_bytes(leaf["total"])),
    ]
    tds = "".join(
        f'<td class="jdw-mem-num">{c}</td>' if i >= 5 else f"<td>{c}</td>"
        for i, c in enumerate(cells)
    )
    return f"<tr{flagged}>{tds}</tr>"


def _note(text: str) -> str:
    return f'<div class="jdw-mem-note">{escape(text)}</div>'

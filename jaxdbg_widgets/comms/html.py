"""The static communication map: deterministic, self-contained HTML for saved notebooks.

The same map always gives the same bytes; every string is escaped; colours are inline. It
shows the summary, the annotated source, the per-device heatmap, axis totals, the program's
shardings and what could not be read. The widget adds clicking a line for its sharding diagrams.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.png import hex_rgba, png_data_url
from jaxdbg_widgets.comms.view import collective_rows, comms_view, mesh_text

ROW_LIMIT = 200
LABEL_LIMIT = 64

_T = "div.jdw-comms table"
STYLE = (
    ".jdw-comms{font-family:var(--jp-ui-font-family,sans-serif);max-width:900px;"
    "font-size:var(--jp-ui-font-size1,13px);color:var(--jp-ui-font-color1,#1f1f1f)}"
    ".jdw-comms-head{font-weight:bold;margin:6px 0 2px}"
    ".jdw-comms-scroll{overflow:auto;max-height:480px;max-width:100%}"
    f"{_T}{{border-collapse:collapse;margin:4px 0;font-size:inherit;color:inherit;border:none}}"
    f"{_T} tr,{_T} tr:hover{{background:transparent}}"
    f"{_T} th{{font-weight:normal;color:var(--jp-ui-font-color2,#616161);padding:1px 6px;"
    "text-align:left;border:none;background:transparent;white-space:nowrap}"
    f"{_T} td{{padding:1px 6px;text-align:left;border:none;white-space:nowrap}}"
    f"{_T}.jdw-comms-src td{{font-family:var(--jp-code-font-family,monospace)}}"
    f"{_T}.jdw-comms-src tr.jdw-comms-hot td{{background:rgba(230,81,0,0.16)}}"
    f"{_T}.jdw-comms-src td.jdw-comms-no{{color:var(--jp-ui-font-color2,#616161);text-align:right}}"
    f"{_T}.jdw-comms-heat td{{min-width:3ch;padding:1px 3px;text-align:center;"
    "font-family:var(--jp-code-font-family,monospace);border:1px solid var(--jp-border-color1,#bdbdbd)}"
    ".jdw-comms-note{color:var(--jp-ui-font-color2,#616161);font-size:smaller;margin:2px 0}"
    ".jdw-comms-warn{color:var(--jp-warn-color0,#e65100)}"
)


def render_html(comms: CommunicationModel) -> str:
    """The map as one HTML fragment with its own ``<style>``."""
    return html_from_view(comms_view(comms))


def html_from_view(view: dict[str, Any]) -> str:
    """HTML for a view model (see :func:`jaxdbg_widgets.comms.view.comms_view`)."""
    rows = collective_rows(view)
    parts = [
        '<div class="jdw-comms">',
        f"<style>{STYLE}</style>",
        f'<div class="jdw-comms-head">{escape(view["head"])}</div>',
        *(f"<div>{escape(line)}</div>" for line in view["summary"]),
        _source(view, rows),
        _collectives(view, rows),
        _heatmap(view["heat"]),
        _pairs("bytes sent per device per step, by mesh axes", view["axis_totals"]),
        _shardings(view),
        _mismatches(view["mismatches"]),
        _memory(view["memory"]),
        _remat(view["remat"]),
        _unread(view["unread"]),
        *(_note(line) for line in view["notes"]),
        "</div>",
    ]
    return "".join(parts)


def _source(view: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    if not view["sources"]:
        return _note("no source lines: " + ("nothing communicates" if not rows else "see notes"))
    annotated: dict[tuple[str, int], str] = {}
    for line in view["lines"]:
        if line["line"] is None:
            continue
        kinds: dict[str, int] = {}
        for i in line["collectives"]:
            kinds[rows[i]["kind"]] = kinds.get(rows[i]["kind"], 0) + 1
        what = ", ".join(f"{n}× {k}" for k, n in kinds.items())
        axes = sorted({rows[i]["axes"] for i in line["collectives"]})
        annotated[(line["file"], line["line"])] = (
            f"{what} · {line['human']}/step · {' '.join(axes)}"
        )
    parts = []
    for source in view["sources"]:
        body = []
        for number, text in source["lines"]:
            note = annotated.get((source["file"], number), "")
            hot = ' class="jdw-comms-hot"' if note else ""
            body.append(
                f'<tr{hot}><td class="jdw-comms-no">{number}</td><td>{escape(text)}</td>'
                f"<td>{escape(note)}</td></tr>"
            )
        parts.append(
            f'<div class="jdw-comms-head">{escape(source["name"])}</div>'
            f'<div class="jdw-comms-scroll"><table class="jdw-comms-src">{"".join(body)}</table></div>'
        )
    return "".join(parts)


def _collectives(view: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    header = "".join(
        f"<th>{h}</th>"
        for h in ("line", "kind", "instruction", "result", "sent/device", "axes", "group", "loop")
    )
    body = []
    for row in rows[:ROW_LIMIT]:
        line = view["lines"][row["line"]]
        loop = f"×{row['executions']}" if row["executions"] else ""
        cells = (
            line["label"],
            row["kind"],
            row["name"],
            row["result"],
            row["human"],
            row["axes"],
            str(row["group"]),
            loop,
        )
        body.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    more = (
        _note(f"the first {ROW_LIMIT} of {len(rows):,} collectives")
        if len(rows) > ROW_LIMIT
        else ""
    )
    if not rows:
        return ""
    return (
        '<div class="jdw-comms-head">collectives (bytes per execution)</div>'
        f'<div class="jdw-comms-scroll"><table><tr>{header}</tr>{"".join(body)}</table></div>{more}'
    )


def _heatmap(heat: dict[str, Any]) -> str:
    low, mid, high = (escape(t) for t in heat["ticks"])
    drawn = _heat_table(heat) if len(heat["devices"]) <= LABEL_LIMIT else _heat_image(heat)
    return (
        '<div class="jdw-comms-head">bytes sent per device per step</div>'
        f'<div class="jdw-comms-scroll">{drawn}</div>' + _note(f"scale: {low} · {mid} · {high}")
    )


def _heat_table(heat: dict[str, Any]) -> str:
    """A small mesh: one labelled cell per device, its bytes in the tooltip."""
    at = {(r, c): heat["devices"][i] for r, c, i in heat["cells"]}
    rows = []
    if heat["title"] or heat["col_label"]:
        rows.append(f'<tr><th colspan="{heat["cols"] + 1}">{_heat_title(heat)}</th></tr>')
    for r in range(heat["rows"]):
        cells = []
        for c in range(heat["cols"]):
            device = at.get((r, c))
            if device is None:
                cells.append("<td></td>")
                continue
            ident, sent, level = device
            style = f"background:{heat['palette'][level]};color:{heat['text'][level]}"
            cells.append(
                f'<td style="{style}" title="device {ident}: {sent:,} bytes sent">{ident}</td>'
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="jdw-comms-heat">{"".join(rows)}</table>'


def _heat_image(heat: dict[str, Any]) -> str:
    """A large mesh: one pixel per device scaled up, holes transparent (a table of thousands of
    cells would take the browser longer to lay out than the rest of the map)."""
    colors = np.asarray([hex_rgba(c) for c in heat["palette"]], dtype=np.uint8)
    pixels = np.zeros((heat["rows"], heat["cols"], 4), dtype=np.uint8)
    for row, col, position in heat["cells"]:
        pixels[row, col] = colors[heat["devices"][position][2]]
    scale = heat_cell_px(heat["cols"])
    return (
        f'<div class="jdw-comms-note">{_heat_title(heat)}</div>'
        f'<img style="image-rendering:pixelated;display:block" src="{png_data_url(pixels)}" '
        f'width="{heat["cols"] * scale}" height="{heat["rows"] * scale}" '
        f'alt="bytes sent by each of {len(heat["cells"])} devices">'
    )


def _heat_title(heat: dict[str, Any]) -> str:
    """The heatmap's title and the mesh axis running across it, escaped."""
    return escape(heat["title"]) + (
        f" · {escape(heat['col_label'])} →" if heat["col_label"] else ""
    )


def heat_cell_px(cols: int) -> int:
    """The side of one device's square in the heatmap image: as large as fits 860 px, 3-10 px."""
    return max(3, min(10, 860 // max(cols, 1)))


def _pairs(title: str, rows: list[list[Any]]) -> str:
    if not rows:
        return ""
    body = "".join(
        f"<tr><td>{escape(label)}</td><td>{escape(human)}</td></tr>" for label, _, human in rows
    )
    return f'<div class="jdw-comms-head">{escape(title)}</div><table>{body}</table>'


def _shardings(view: dict[str, Any]) -> str:
    rows = [("input", *row) for row in view["inputs"]] + [
        ("output", *row) for row in view["outputs"]
    ]
    if not rows:
        return ""
    caption = _note(mesh_text(view["mesh"])) if view["mesh"] else ""
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>"
        for row in rows[:ROW_LIMIT]
    )
    more = (
        _note(f"the first {ROW_LIMIT} of {len(rows):,} inputs and outputs")
        if len(rows) > ROW_LIMIT
        else ""
    )
    header = "".join(f"<th>{h}</th>" for h in ("", "path", "shape", "dtype", "sharding"))
    return (
        f'<div class="jdw-comms-head">program shardings</div>{caption}'
        f"<table><tr>{header}</tr>{body}</table>{more}"
    )


def _mismatches(rows: list[list[str]]) -> str:
    return _warnings(
        "arguments placed differently",
        [
            f"{escape(path)}: now {escape(now)}, the program expects {escape(want)}: "
            "copied before every call"
            for path, now, want in rows
        ],
    )


def _memory(memory: dict[str, Any] | None) -> str:
    if memory is None:
        return ""
    body = "".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in memory["rows"])
    peak = f"<tr><td><b>peak estimate</b></td><td><b>{escape(memory['peak'])}</b></td></tr>"
    notes = "".join(_note(n) for n in memory["notes"])
    return f'<div class="jdw-comms-head">XLA memory analysis, per device</div><table>{body}{peak}</table>{notes}'


def _remat(rows: list[list[str]]) -> str:
    return _warnings(
        "XLA rematerialization warnings",
        [f"{escape(where or 'no line named')}: {escape(text[:400])}" for text, where in rows],
    )


def _warnings(title: str, lines: list[str]) -> str:
    """A heading over one warning per line (HTML already escaped), or nothing without lines."""
    if not lines:
        return ""
    body = "".join(f'<div class="jdw-comms-warn">{line}</div>' for line in lines)
    return f'<div class="jdw-comms-head">{title}</div>{body}'


def _unread(rows: list[list[str]]) -> str:
    if not rows:
        return ""
    body = "".join(
        f"<tr><td>{escape(n)}</td><td>{escape(o)}</td><td>{escape(r)}</td></tr>"
        for n, o, r in rows[:50]
    )
    return (
        f'<div class="jdw-comms-head jdw-comms-warn">unread: {len(rows)} instruction(s) not counted</div>'
        f"<table>{body}</table>"
    )


def _note(text: str) -> str:
    return f'<div class="jdw-comms-note">{escape(text)}</div>'

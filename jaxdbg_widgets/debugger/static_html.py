"""A self-contained, read-only HTML rendering of a debugger view state.

It travels in the widget's output bundle as ``text/html``, so a saved notebook or an
nbconvert export still shows where the breakpoint was and what was evaluated there. It stays
compact: a frame step (``u``/``d``) keeps only the line saying where it went, and the locals
table is left-aligned whatever the notebook's own table style.
"""

from __future__ import annotations

from html import escape
from typing import Any

from jaxdbg_widgets.debugger.values import format_summary

_STATUS_TEXT = {
    "waiting": "waiting at breakpoint",
    "continue": "continued",
    "continue_all": "continued (remaining breakpoints skipped)",
    "quit": "quit: computation stopped",
    "interrupted": "interrupted",
}

_BOX = (
    "font-family:var(--jp-code-font-family,monospace);font-size:12px;"
    "border:1px solid var(--jp-border-color2,#ccc);border-radius:4px;padding:6px 8px;"
    "color:var(--jp-content-font-color1,inherit);background:var(--jp-layout-color1,transparent)"
)
_PRE = "margin:2px 0 6px 0;white-space:pre-wrap;overflow-wrap:anywhere"
_TABLE = "border-collapse:collapse;margin:4px 0;table-layout:auto;width:auto"
_CELL = "text-align:left;vertical-align:top;padding:1px 12px 1px 0;white-space:nowrap"
_VALUE = (
    "text-align:left;vertical-align:top;padding:1px 0;white-space:pre-wrap;overflow-wrap:anywhere"
)
_ERROR = "color:var(--jp-error-color1,#d32f2f)"
_MUTED = "color:var(--jp-content-font-color2,#666)"


def render(view: dict[str, Any]) -> str:
    """The header, the frames, the current line and the transcript of ``view``, all escaped."""
    parts = [f'<div class="jaxdbg-static" style="{_BOX}">', _header(view)]
    parts.append(_shards(view))
    parts.append(_frames(view))
    parts.append(_transcript(view))
    parts.append("</div>")
    return "".join(parts)


def _header(view: dict[str, Any]) -> str:
    header = view.get("header", {})
    status = _STATUS_TEXT.get(view.get("status", ""), str(view.get("status", "")))
    batch = header.get("batch")
    details = [header.get("thread", "")]
    if batch:
        details.append(f"batch index {batch['index']} of {batch['size']}")
    details.append(f"breakpoint #{header.get('hit', 1)}")
    return (
        f"<div><b>jaxdbg</b> {escape(str(header.get('location', '')))} "
        f'<span style="{_MUTED}">({escape(", ".join(d for d in details if d))}; '
        f"{escape(status)})</span></div>"
    )


def _frames(view: dict[str, Any]) -> str:
    frames = view.get("frames", [])
    if not frames:
        return ""
    selected = view.get("selected", 0)
    bold = ' style="font-weight:bold"'
    items = "".join(
        f"<li{bold if i == selected else ''}>"
        f"{escape(f['function'])} ({escape(f['file'])}:{int(f['line'])})</li>"
        for i, f in enumerate(frames)
    )
    return f'<ol start="0" style="margin:4px 0 4px 1.5em;padding:0">{items}</ol>' + _locals(view)


def _locals(view: dict[str, Any]) -> str:
    rows = view.get("locals", [])
    if not rows:
        return ""
    body = "".join(
        f'<tr><td style="{_CELL}">{escape(row["name"])}</td>'
        f'<td style="{_CELL};{_MUTED}">{escape(row["type"])}</td>'
        f'<td style="{_VALUE}">'
        f"{escape(format_summary(row['summary']) if 'summary' in row else row.get('repr', ''))}"
        "</td></tr>"
        for row in rows
    )
    return f'<table style="{_TABLE}">{body}</table>'


def _shards(view: dict[str, Any]) -> str:
    """A shard session's devices, one row each, with the last compare's value beside it."""
    shards = view.get("shards")
    if not shards:
        return ""
    compare = shards.get("compare") or {}
    values = compare.get("rows", [])
    of = f" of {shards['expected']}" if shards.get("expected") else ""
    title = f"{shards['arrived']}{of} shards"
    if compare:
        title += f"; compare {compare['expression']}"
    body = []
    for position, device in enumerate(shards.get("devices", [])):
        value = values[position] if position < len(values) else None
        marked = bool(value and value.get("differs"))
        weight = ";font-weight:bold" if position == shards.get("selected") else ""
        state = _STATUS_TEXT.get(device["state"], device["state"])
        body.append(
            f'<tr><td style="{_CELL}{weight}">{"! " if marked else ""}{int(device["index"])}</td>'
            f'<td style="{_CELL}{weight}">{escape(device["label"])}</td>'
            f'<td style="{_CELL};{_MUTED}">{escape(state)}</td>'
            f'<td style="{_VALUE}{";" + _ERROR if marked else ""}">'
            f"{escape(value['value']) if value else ''}</td></tr>"
        )
    return (
        f'<div style="{_MUTED}">{escape(title)}</div>'
        f'<table style="{_TABLE}">{"".join(body)}</table>'
    )


_STEPS = frozenset({"u", "up", "d", "down"})


def _shown_output(entry: dict[str, Any]) -> str:
    """The output kept in the saved transcript: a frame step keeps only where it went."""
    output = entry["output"]
    if entry["command"].strip() not in _STEPS:
        return output
    lines = output.split("\n")
    end = next((i for i, line in enumerate(lines) if line.startswith("> ")), len(lines) - 1)
    return "\n".join(lines[: end + 1])


def _transcript(view: dict[str, Any]) -> str:
    entries = view.get("transcript", [])
    if not entries:
        return f'<div style="{_MUTED}">(no commands)</div>'
    parts = []
    for entry in entries:
        parts.append(f"<div>(jdb) {escape(entry['command'])}</div>")
        output = _shown_output(entry)
        if output:
            style = f"{_PRE};{_ERROR}" if entry["error"] else _PRE
            parts.append(f'<pre style="{style}">{escape(output)}</pre>')
    return "".join(parts)

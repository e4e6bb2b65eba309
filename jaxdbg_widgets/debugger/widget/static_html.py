"""A self-contained, read-only HTML rendering of a debugger view state.

It travels in the widget's output bundle as ``text/html``, so a saved notebook or an
nbconvert export still shows where the breakpoint was and what was evaluated there. It stays
compact: a frame step (``u``/``d``) keeps only the line saying where it went, and the locals
table is left-aligned whatever the notebook's own table style.
"""

from __future__ import annotations

from html import escape
from typing import Any

from jaxdbg_widgets.debugger.schema import DebuggerView
from jaxdbg_widgets.debugger.session.shard_compare import shard_ranges
from jaxdbg_widgets.debugger.session.values import format_summary
from jaxdbg_widgets.pictures.html import html_from_view

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
_TILES = "display:flex;flex-wrap:wrap;align-items:flex-end;gap:4px;margin:2px 0 4px 0"
_TILE = "margin:0;text-align:center;max-width:8em;overflow:hidden;white-space:nowrap"
_PIXELS = (
    "image-rendering:pixelated;object-fit:contain;border:1px solid var(--jp-border-color2,#ccc)"
)


def render(view: DebuggerView) -> str:
    """The header, the frames, the current line and the transcript of ``view``, all escaped."""
    parts = [f'<div class="jaxdbg-static" style="{_BOX}">', _header(view)]
    parts.append(_shards(view))
    parts.append(_frames(view))
    parts.append(_transcript(view))
    parts.append("</div>")
    return "".join(parts)


class FrozenView:
    """The read-only output a finished session leaves behind: plain text and static HTML."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        location = self.view.get("header", {}).get("location", "")
        return {
            "text/plain": f"<jaxdbg breakpoint at {location}: {self.view.get('status', '')}>",
            "text/html": render(self.view),
        }


def _header(view: dict[str, Any]) -> str:
    header = view.get("header", {})
    status = _STATUS_TEXT.get(view.get("status", ""), str(view.get("status", "")))
    batch = header.get("batch")
    details = [header.get("thread", "")]
    if batch:
        details.append(f"batch index {batch['index']} of {batch['size']}")
    details.append(header.get("stop", "breakpoint"))
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
    """A shard session in a few lines at any device count: one line per group of shards in the
    same state, then the last compare's groups of equal values and its verdict."""
    shards = view.get("shards")
    if not shards:
        return ""
    of = f" of {shards['expected']}" if shards.get("expected") else ""
    title = f"{shards['arrived']}{of} shards"
    lines = [f'<div style="{_MUTED}">{escape(title)}</div>']
    by_state: dict[str, list[int]] = {}
    for device in shards.get("devices", []):
        by_state.setdefault(device["state"], []).append(int(device["index"]))
    for state, indices in by_state.items():
        text = f"{shard_ranges(indices)}: {_STATUS_TEXT.get(state, state)}"
        lines.append(f"<div>{escape(text)}</div>")
    compare = shards.get("compare")
    if compare:
        expression = f"compare {compare['expression']}"
        lines.append(f'<div style="{_MUTED}">{escape(expression)}</div>')
        if compare.get("pictures"):
            lines.append(_compare_pictures(compare["pictures"]))
        for group in compare.get("groups", []):
            style = f' style="{_ERROR}"' if group["differs"] else ""
            text = f"{'! ' if group['differs'] else ''}{group['shards']}: {group['value']}"
            lines.append(f"<div{style}>{escape(text)}</div>")
        lines.append(f"<div>{escape(compare.get('verdict', ''))}</div>")
    return f'<div style="{_PRE}">{"".join(lines)}</div>'


def _compare_pictures(row: dict[str, Any]) -> str:
    """The compare's pictures on their one scale, each under its shard's label, as plain HTML."""
    tiles = []
    for tile in row["tiles"]:
        name = tile["label"] if tile["count"] == 1 else f"{tile['label']} ({tile['count']})"
        style = f";{_ERROR}" if tile["differs"] else ""
        tiles.append(
            f'<figure style="{_TILE}{style}"><img src="{escape(tile["png"])}" '
            f'alt="{escape(name)}: {escape(tile["summary"])}" width="48" height="48" '
            f'style="{_PIXELS}"><figcaption>{escape(name)}</figcaption></figure>'
        )
    if row.get("more"):
        tiles.append(f'<span style="{_MUTED}">{escape(row["more"])}</span>')
    scale = f'<div style="{_MUTED}">{escape(row["scale"]["text"])}</div>'
    return f'{scale}<div style="{_TILES}">{"".join(tiles)}</div>'


_STEPS = frozenset({"u", "up", "d", "down"})
_DEVICE = frozenset({"dev", "device"})
LISTING_KEPT = 8
"""How many shards of a ``dev`` listing the saved transcript keeps."""


def _shown_output(entry: dict[str, Any]) -> str:
    """The output kept in the saved transcript: a frame step or a device pick keeps only where
    it went, a ``dev`` listing its first shards."""
    output = entry["output"]
    name, _, arg = entry["command"].strip().partition(" ")
    lines = output.split("\n")
    if name in _DEVICE and not arg.strip() and len(lines) > LISTING_KEPT + 1:
        more = len(lines) - 1 - LISTING_KEPT
        return "\n".join([*lines[: LISTING_KEPT + 1], f"... ({more} more shards)"])
    if name not in _STEPS and name not in _DEVICE:
        return output
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
        if "picture" in entry:  # a p result that is an array: its picture stays in the saved page
            parts.append(html_from_view({"pictures": [entry["picture"]], "skipped": []}))
    return "".join(parts)

"""The static report: deterministic, escaped, self-contained HTML for saved notebooks."""

from __future__ import annotations

from html import escape
from typing import Any

from jaxdbg_widgets.nans.report import NonfiniteReport
from jaxdbg_widgets.nans.view import report_view

STYLE = (
    ".jdw-nan{font-family:var(--jp-ui-font-family,sans-serif);"
    "font-size:var(--jp-ui-font-size1,13px);color:var(--jp-ui-font-color1,#1f1f1f)}"
    ".jdw-nan-head{font-weight:bold;margin:0 0 4px}"
    ".jdw-nan-facts{margin:2px 0 4px;padding:0 0 0 1.5em}"
    ".jdw-nan pre{font-family:var(--jp-code-font-family,monospace);margin:2px 0;"
    "padding:2px 4px;background:var(--jp-layout-color2,#f5f5f5);white-space:pre;overflow-x:auto}"
    ".jdw-nan-mark{background:rgba(230,81,0,0.25);font-weight:bold}"
    ".jdw-nan-note{color:var(--jp-ui-font-color2,#616161);font-size:smaller}"
)


def _source_html(source: dict[str, Any] | None) -> str:
    if source is None:
        return ""
    rows = []
    for line in source["lines"]:
        text = escape(f"{line['lineno']:>5} {'>' if line['marked'] else ' '} {line['text']}")
        rows.append(f'<span class="jdw-nan-mark">{text}</span>' if line["marked"] else text)
    head = f"{escape(source['filename'])} in {escape(source['function'])}"
    return f'<div class="jdw-nan-note">{head}</div><pre>' + "\n".join(rows) + "</pre>"


def html_from_view(view: dict[str, Any]) -> str:
    """HTML for a view model (see :func:`jaxdbg_widgets.nans.view.report_view`)."""
    parts = [
        f"<style>{STYLE}</style>",
        '<div class="jdw-nan">',
        f'<div class="jdw-nan-head">find_nonfinite({escape(view["function"])}): '
        f"{escape(view['headline'])}</div>",
    ]
    if view["arguments"]:
        parts.append('<ul class="jdw-nan-facts">')
        parts.extend(f"<li>{escape(a)}</li>" for a in view["arguments"])
        parts.append("</ul>")
    for origin in view["origins"]:
        parts.append(f"<div><b>{escape(origin['heading'])}</b></div>")
        parts.append('<ul class="jdw-nan-facts">')
        parts.extend(f"<li>{escape(fact)}</li>" for fact in origin["facts"])
        parts.append("</ul>")
        parts.append(_source_html(origin["source"]))
    if view["skipped"]:
        parts.append(
            f'<div class="jdw-nan-note">{len(view["skipped"])} debug print/callback call(s) '
            "skipped, not run: " + "; ".join(escape(s) for s in view["skipped"]) + "</div>"
        )
    parts.append("</div>")
    return "".join(parts)


def render_html(report: NonfiniteReport) -> str:
    """The report as one HTML fragment with its own ``<style>``."""
    return html_from_view(report_view(report))

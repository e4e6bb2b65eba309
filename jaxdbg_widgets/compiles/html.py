"""The static compile report: deterministic, self-contained HTML for saved notebooks.

The same report always gives the same bytes (no ids, no clock); every string is escaped. Seconds
sit in cells of class ``jdw-cmp-s`` so a notebook test's sanitizer can blank them. A small
inline script sorts a table by a clicked header where scripts run; elsewhere it stays static.
"""

from __future__ import annotations

from html import escape

from jaxdbg_widgets.compiles.model import CompileReport
from jaxdbg_widgets.compiles.view import (
    Section,
    Table,
    causes_table,
    function_sections,
    headline,
    summary_table,
)

_T = "div.jdw-cmp table"
STYLE = (
    ".jdw-cmp{font-family:var(--jp-ui-font-family,sans-serif);"
    "font-size:var(--jp-ui-font-size1,13px);color:var(--jp-ui-font-color1,#1f1f1f)}"
    ".jdw-cmp-head{font-weight:bold;margin:0 0 4px}"
    ".jdw-cmp-title{margin:8px 0 2px;color:var(--jp-ui-font-color2,#616161)}"
    ".jdw-cmp details{margin:2px 0 2px 8px}.jdw-cmp summary{cursor:pointer}"
    f"{_T}{{border-collapse:collapse;margin:2px 0;font-size:inherit;color:inherit;border:none}}"
    f"{_T} th{{font-weight:normal;color:var(--jp-ui-font-color2,#616161);padding:2px 6px;"
    "text-align:left;border:none;background:transparent;white-space:nowrap;cursor:pointer}"
    f"{_T} td{{padding:1px 6px;text-align:left;border:none;white-space:nowrap;"
    "border-bottom:1px solid var(--jp-border-color2,#e0e0e0)}"
    f"{_T} td.jdw-cmp-num{{text-align:right;font-variant-numeric:tabular-nums}}"
    f"{_T} td.jdw-cmp-code{{font-family:var(--jp-code-font-family,monospace);white-space:pre}}"
)
_SORT = (
    "(function(){var s=document.currentScript,r=s&&s.parentElement;if(!r)return;"
    "r.querySelectorAll('table').forEach(function(t){t.querySelectorAll('th').forEach("
    "function(h,i){h.addEventListener('click',function(){var b=t.tBodies[0],"
    "rows=Array.from(b.rows),d=h.dataset.dir==='a'?-1:1;h.dataset.dir=d>0?'a':'d';"
    "rows.sort(function(x,y){var p=x.cells[i].dataset.v,q=y.cells[i].dataset.v;"
    "if(p!==undefined)return d*(parseFloat(p)-parseFloat(q));"
    "return d*x.cells[i].textContent.localeCompare(y.cells[i].textContent);});"
    "rows.forEach(function(x){b.appendChild(x);});});});});})();"
)
_UNITS = {"s": 1.0, "ms": 1e-3}


def _sort_value(text: str) -> str | None:
    """The number a numeric cell sorts by (seconds in seconds, counts as they are)."""
    number, _, unit = text.partition(" ")
    try:
        return repr(float(number.replace(",", "")) * _UNITS.get(unit, 1.0))
    except ValueError:
        return None


def _cell(text: str, numeric: bool, code: bool) -> str:
    """One ``<td>``: numbers right-aligned with the value they sort by, code in monospace."""
    classes = []
    if numeric:
        classes.append("jdw-cmp-num")
        if text.endswith((" s", " ms")):
            classes.append("jdw-cmp-s")
    if code:
        classes.append("jdw-cmp-code")
    value = _sort_value(text) if numeric else None
    attributes = f' class="{" ".join(classes)}"' if classes else ""
    attributes += f' data-v="{value}"' if value is not None else ""
    return f"<td{attributes}>{escape(text)}</td>"


def table_html(table: Table) -> str:
    """One table with its title."""
    code = table.header[-1] == "code"
    head = "".join(f"<th>{escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>"
        + "".join(_cell(c, table.numeric[i], code and i == len(row) - 1) for i, c in enumerate(row))
        + "</tr>"
        for row in table.rows
    )
    return (
        f'<div class="jdw-cmp-title">{escape(table.title)}</div>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def section_html(section: Section) -> str:
    """One function, folded: its summary opens its programs, causes and largest program's lines."""
    size = table_html(section.size) if section.size is not None and section.size.rows else ""
    return (
        f"<details><summary>{escape(section.summary)}</summary>"
        f"{table_html(section.programs)}{size}</details>"
    )


def render_html(report: CompileReport) -> str:
    """The report as one HTML fragment with its own ``<style>`` and sorting script: the sums per
    function and call site, the causes, then each function folded with its programs and sizes."""
    tables = [t for t in (summary_table(report), causes_table(report)) if t.rows]
    sections = function_sections(report)
    return "".join(
        [
            '<div class="jdw-cmp">',
            f"<style>{STYLE}</style>",
            f'<div class="jdw-cmp-head">{escape(headline(report))}</div>',
            *(table_html(t) for t in tables),
            '<div class="jdw-cmp-title">per function (click to open)</div>' if sections else "",
            *(section_html(s) for s in sections),
            "" if tables else "<div>nothing was traced or compiled</div>",
            f"<script>{_SORT}</script>",
            "</div>",
        ]
    )

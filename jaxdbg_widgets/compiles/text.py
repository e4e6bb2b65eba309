"""The terminal compile report: a headline, then aligned plain-text tables."""

from __future__ import annotations

from jaxdbg_widgets.compiles.model import CompileReport
from jaxdbg_widgets.compiles.view import Table, headline, report_tables

CELL = 60
"""Longest cell shown; longer ones (a cause, a line of code) are cut with an ellipsis."""


def _cell(text: str) -> str:
    """A cell cut to ``CELL`` characters."""
    return text if len(text) <= CELL else text[: CELL - 1] + "…"


def table_text(table: Table) -> str:
    """One table: its title, a header and its rows, columns aligned."""
    last = len(table.header) - 1
    cells = [
        tuple(c if i == last else _cell(c) for i, c in enumerate(row))  # a cause is shown whole
        for row in (table.header, *table.rows)
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(last)]
    lines = [table.title]
    for row in cells:
        parts = [
            row[i].rjust(widths[i]) if table.numeric[i] else row[i].ljust(widths[i])
            for i in range(last)
        ]
        lines.append("  " + "  ".join([*parts, row[last]]).rstrip())
    return "\n".join(lines)


def render_text(report: CompileReport) -> str:
    """The whole report as text."""
    tables = report_tables(report)
    if not tables:
        return headline(report) + "\nnothing was traced or compiled"
    return "\n\n".join([headline(report), *(table_text(t) for t in tables)])

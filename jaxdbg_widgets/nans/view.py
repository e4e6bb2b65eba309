"""The view model the static HTML and the widget both draw: plain JSON-ready data."""

from __future__ import annotations

import linecache

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin
from jaxdbg_widgets.nans.schema import NonfiniteView, OriginView, SourceRow, SourceView
from jaxdbg_widgets.nans.text import origin_lines

CONTEXT_LINES = 4
"""Source lines shown on each side of the marked line."""


def _source(origin: Origin) -> SourceView | None:
    line = origin.source
    if line is None:
        return None
    first = max(1, line.lineno - CONTEXT_LINES)
    rows: list[SourceRow] = []
    for number in range(first, line.lineno + CONTEXT_LINES + 1):
        text = linecache.getline(line.filename, number)
        if not text and number > line.lineno:
            break
        shown = cell_files.cell_line(line.filename, number)
        rows.append({"lineno": shown, "text": text.rstrip("\n"), "marked": number == line.lineno})
    where = cell_files.cell_name(line.filename) or line.filename
    return {"filename": where, "function": line.function, "lines": rows}


def _origin_view(origin: Origin, heading: str) -> OriginView:
    facts = origin_lines(origin, heading)
    return {"heading": facts[0], "facts": [f.strip() for f in facts[1:]], "source": _source(origin)}


def report_view(report: NonfiniteReport) -> NonfiniteView:
    """Headline, one block per origin (facts and marked source), skipped callbacks."""
    if report.nonfinite_arguments:
        headline = "an argument is already non-finite"
    elif report.origin is None:
        headline = (
            f"all finite: {report.equations_checked} equations checked "
            f"({report.equations_total} in the program)"
        )
    else:
        where = report.origin.source
        headline = f"{report.heading} from {report.origin.primitive}" + (
            f" at line {where.shown_lineno} in {where.function}" if where else ""
        )
    origins: list[OriginView] = []
    if report.origin is not None:
        origins.append(_origin_view(report.origin, report.heading))
    if report.nan_origin is not None:
        origins.append(_origin_view(report.nan_origin, "first NaN"))
    return {
        "function": report.function,
        "headline": headline,
        "arguments": [s.describe() for s in report.nonfinite_arguments],
        "origins": origins,
        "checked": report.equations_checked,
        "skipped": [line.describe() for line in report.skipped_callbacks],
        "debuggable": report.origin is not None,
    }

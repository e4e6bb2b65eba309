"""The print log a notebook shows: one standalone ``text/html`` output, linked to the live table
while the kernel runs.

The output carries the newest rows, their counts and the pictures of the prints that carried
arrays (up to ``BUDGET`` bytes of JSON), so a saved, restarted or reloaded notebook shows the
log as it last stood, filters it in the page and expands its pictures. While the kernel lives,
the output draws over the live table (``jaxdbg_widgets._linked``), which follows new prints.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.notebook.printlog import PrintBuffer
from jaxdbg_widgets.notebook.printlog_schema import PrintRow
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget, entry_row, page_stats
from jaxdbg_widgets.pictures.thumbnail import small_picture

BUDGET = 1 << 20

_COLUMNS = (("index", "#"), ("cell", "cell"), ("time", "time"), ("site", "call site"))
_COLUMNS_AFTER = (("text", "text"), ("values", "values"))


def standalone_log(log: PrintBuffer, live: PrintLogWidget) -> StandaloneOutput:
    """The log's newest rows as text and standalone HTML, linked to ``live``."""
    page = log.page("", live.limit)
    rows = [entry_row(entry) for entry in page.entries]
    html = standalone_html(
        module="printlog.js",
        css=("widgets.css", "printlog.css", "pictures.css"),
        state={
            "rows": rows,
            "stats": page_stats(page),
            "query": "",
            "limit": live.limit,
            "expanded": -1,
            "pictures": {},
            "link": live.link,
        },
        static_html=static_table(rows),
        derived={"expanded": ("pictures", _carried_pictures(log, rows))},
        link=live.link,
    )
    return StandaloneOutput(log.to_text(), html)


def _carried_pictures(log: PrintBuffer, rows: list[PrintRow]) -> dict[str, Any]:
    """The pictures of each shown print that carried arrays, newest first, within ``BUDGET``."""
    carried: dict[str, Any] = {}
    size = 0
    for row in reversed(rows):
        if not row["arrays"]:
            continue
        drawn = [small_picture(value, name) for name, value in log.printed_arrays(row["index"])]
        pictures = [p for p in drawn if p is not None]
        if not pictures:
            continue
        answer = {"index": row["index"], "view": {"pictures": pictures, "skipped": []}}
        size += len(json.dumps(answer, separators=(",", ":")))
        if size > BUDGET:
            break
        carried[str(row["index"])] = answer
    return carried


def static_table(rows: list[PrintRow]) -> str:
    """The rows as a plain HTML table, for viewers that run no script."""
    processes = any(row["process"] is not None for row in rows)
    columns = (*_COLUMNS, *((("process", "process"),) if processes else ()), *_COLUMNS_AFTER)
    head = "".join(f"<th>{escape(title)}</th>" for _key, title in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(_cell(row, key))}</td>" for key, _title in columns) + "</tr>"
        for row in rows
    )
    empty = "" if rows else '<div class="jaxdbg-printlog-status">no prints yet</div>'
    return (
        '<div class="jaxdbg-printlog"><table class="jaxdbg-printlog-table">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{empty}</div>"
    )


def _cell(row: PrintRow, key: str) -> str:
    value = row[key]  # type: ignore[literal-required]
    if key == "cell":
        return "" if value is None else f"[{value}]"
    return "" if value is None else str(value)

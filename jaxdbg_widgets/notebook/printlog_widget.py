"""The print log as a live table: a thin anywidget view over a :class:`PrintBuffer`.

The browser gets the newest ``limit`` rows matching the filter box, refreshed at most
``1 / interval`` times a second however fast prints arrive; all state changes of one refresh
travel in one comm message. A row whose print carried arrays expands (``expanded``) into their
pictures, drawn from the values the print already holds.
"""

from __future__ import annotations

import threading
from typing import Any, cast

import anywidget
import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._linked import Linkable
from jaxdbg_widgets.notebook.printlog import LogEntry, LogPage, PrintBuffer
from jaxdbg_widgets.notebook.printlog_schema import PrintRow, PrintStats
from jaxdbg_widgets.notebook.throttle import Throttle
from jaxdbg_widgets.pictures.thumbnail import small_picture

DEFAULT_LIMIT = 200
DEFAULT_INTERVAL = 0.1


def entry_row(entry: LogEntry) -> PrintRow:
    """The JSON row the table shows for one entry."""
    return {
        "index": entry.index,
        "cell": entry.cell,
        "time": entry.clock,
        "site": entry.site,
        "text": entry.text,
        "values": entry.summary,
        "arrays": entry.arrays,
        "process": entry.process,
    }


def page_stats(page: LogPage) -> PrintStats:
    """The counts the table's status line shows for one page of the log: the page's fields
    of the same names as the schema's."""
    return cast(PrintStats, {key: getattr(page, key) for key in PrintStats.__annotations__})


class PrintLogWidget(Linkable, anywidget.AnyWidget):
    """Table of a print log with a filter box; ``query`` is what the user typed."""

    _esm = inlined_module("printlog.js")
    _css = stylesheet("widgets.css", "printlog.css", "pictures.css")

    rows: traitlets.List[PrintRow] = traitlets.List().tag(sync=True)
    stats = traitlets.Dict().tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    limit = traitlets.Int(DEFAULT_LIMIT).tag(sync=True)
    expanded = traitlets.Int(-1).tag(sync=True)
    pictures = traitlets.Dict().tag(sync=True)

    def __init__(
        self, log: PrintBuffer, *, interval: float = DEFAULT_INTERVAL, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.print_log = log
        self._refresh_lock = threading.Lock()
        self.throttle = Throttle(self.refresh, interval)
        self._unsubscribe = log.subscribe(self.throttle.poke)
        self.observe(lambda _change: self.refresh(), names=["query", "limit"])
        self.observe(lambda change: self._draw(change["new"]), names=["expanded"])
        self.refresh()

    def refresh(self) -> None:
        """Recompute the visible rows and counts and send them in one message."""
        with self._refresh_lock:
            page = self.print_log.page(self.query, max(0, self.limit))
            with self.hold_sync():
                self.rows = [entry_row(entry) for entry in page.entries]
                self.stats = dict(page_stats(page))  # traitlets' Dict holds a plain dict

    def _draw(self, index: int) -> None:
        """Pictures of the arrays print ``index`` carried, or none (-1, or a dropped print)."""
        drawn = [small_picture(value, name) for name, value in self.print_log.printed_arrays(index)]
        pictures = [p for p in drawn if p is not None]
        self.pictures = (
            {"index": index, "view": {"pictures": pictures, "skipped": []}} if pictures else {}
        )

    def close(self) -> None:
        """Stop following the log and close the comm."""
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
        super().close()

    def __repr__(self) -> str:
        return repr(self.print_log)

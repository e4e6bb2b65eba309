"""The print log as a live table: a thin anywidget view over a :class:`PrintLog`.

The browser gets the newest ``limit`` rows matching the filter box, refreshed at most
``1 / interval`` times a second however fast prints arrive; all state changes of one refresh
travel in one comm message.
"""

from __future__ import annotations

import threading
from typing import Any

import anywidget
import traitlets

from jaxdbg_widgets._assets import asset, inlined_module
from jaxdbg_widgets.notebook.printlog import LogEntry, PrintLog
from jaxdbg_widgets.notebook.throttle import Throttle

DEFAULT_LIMIT = 200
DEFAULT_INTERVAL = 0.1


def entry_row(entry: LogEntry) -> dict[str, Any]:
    """The JSON row the table shows for one entry."""
    return {
        "index": entry.index,
        "cell": entry.cell,
        "time": entry.clock,
        "site": entry.site,
        "text": entry.text,
        "values": entry.summary,
    }


class PrintLogWidget(anywidget.AnyWidget):
    """Table of a print log with a filter box; ``query`` is what the user typed."""

    _esm = inlined_module("printlog.js")
    _css = asset("printlog.css")

    rows = traitlets.List().tag(sync=True)
    stats = traitlets.Dict().tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    limit = traitlets.Int(DEFAULT_LIMIT).tag(sync=True)

    def __init__(self, log: PrintLog, *, interval: float = DEFAULT_INTERVAL, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.print_log = log
        self._refresh_lock = threading.Lock()
        self.throttle = Throttle(self.refresh, interval)
        self._unsubscribe = log.subscribe(self.throttle.poke)
        self.observe(lambda _change: self.refresh(), names=["query", "limit"])
        self.refresh()

    def refresh(self) -> None:
        """Recompute the visible rows and counts and send them in one message."""
        with self._refresh_lock:
            entries, matched = self.print_log.newest(self.query, max(0, self.limit))
            with self.hold_sync():
                self.rows = [entry_row(entry) for entry in entries]
                self.stats = {
                    "seen": self.print_log.seen,
                    "kept": len(self.print_log),
                    "dropped": self.print_log.dropped,
                    "matched": matched,
                    "capacity": self.print_log.capacity,
                }

    def close(self) -> None:
        """Stop following the log and close the comm."""
        unsubscribe = getattr(self, "_unsubscribe", None)
        if unsubscribe is not None:
            unsubscribe()
        super().close()

    def __repr__(self) -> str:
        return repr(self.print_log)

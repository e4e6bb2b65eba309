"""The view of every process's hits: the shown process's own view (built on that process)
with the job's transcript and one selector over every hit of every process.

The selector is the shard session's device block, each row labelled ``process 1, CPU 2
(x=2)``, so the widget draws the process × device selector, the compare table, its row of
pictures and the per-hit Continue buttons it already draws for one process's shards.
"""

from __future__ import annotations

from jaxdbg_widgets.debugger.schema import (
    Compare,
    DebuggerView,
    DeviceRow,
    Header,
    Shards,
    Status,
)
from jaxdbg_widgets.debugger.session.cluster import ClusterSession
from jaxdbg_widgets.debugger.session.values import truncate
from jaxdbg_widgets.debugger.view.build import (
    HISTORY_SHOWN,
    SOURCE_LINE_LIMIT,
    TRANSCRIPT_SHOWN,
    VIEW_LIMIT,
    compare_block,
    fit,
)


class ClusterViewBuilder:
    """Builds view states for a :class:`ClusterSession`."""

    def __init__(self, session: ClusterSession, *, limit: int = VIEW_LIMIT) -> None:
        self.session = session
        self.limit = limit

    def build(self, status: Status = "waiting") -> DebuggerView:
        """The shown process's view with the job's transcript, history and selector."""
        session = self.session
        with session.lock:
            shown = session.shown
            state = shown.view.copy() if shown and shown.view else _empty()
            state["status"] = status
            state["transcript"] = list(session.rows[-TRANSCRIPT_SHOWN:])
            state["history"] = session.history[-HISTORY_SHOWN:]
            header = (state.get("header") or _empty()["header"]).copy()
            header["thread"] = session.thread_label
            header["stop"] = f"breakpoint #{session.hit} on {len(session.processes)} processes"
            state["header"] = header
            state["shards"] = _selector(session, status)
        return fit(state, self.limit)

    def forget(self) -> None:
        """Nothing cached here: each process keeps its own summaries."""


def _selector(session: ClusterSession, status: Status) -> Shards:
    """Every hit of every process as the device selector's rows, and the last compare."""
    rows = session.hit_rows()
    devices: list[DeviceRow] = [
        {
            "label": truncate(label, SOURCE_LINE_LIMIT),
            "index": n,
            "state": "interrupted" if state == "waiting" and status == "interrupted" else state,
        }
        for n, (_process, label, state) in enumerate(rows)
    ]
    compare: Compare | None = None
    if session.compared is not None:
        compared = session.compared
        compare = compare_block(compared.expression, compared.rows, compared.pictures)
    return {
        "expected": None,
        "arrived": len(rows),
        "waiting": sum(state == "waiting" for _, _, state in rows),
        "selected": session.selected_index,
        "devices": devices,
        "compare": compare,
    }


def _empty() -> DebuggerView:
    """The view before the shown process sent its own: no frames yet (``build`` sets the
    status, transcript and history, which come last)."""
    header: Header = {
        "file": "",
        "line": 0,
        "function": "",
        "thread": "",
        "batch": None,
        "stop": "",
        "location": "",
    }
    return {
        "header": header,
        "frames": [],
        "selected": 0,
        "show_internal": False,
        "internal_count": 0,
        "source": None,
        "locals": [],
        "status": "waiting",
        "transcript": [],
        "history": [],
    }

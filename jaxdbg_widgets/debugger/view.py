"""The JSON-able state a front end needs to draw a session, kept under a byte budget.

Values are summarized (reprs cut short, arrays reduced to statistics), so the payload stays
small whatever the program's data; :func:`fit` trims the transcript, source and locals if the
result would still be too large.
"""

from __future__ import annotations

import json
import types
from collections.abc import Collection
from typing import Any

from jaxdbg_widgets.debugger.frame_view import FrameView, display_filename
from jaxdbg_widgets.debugger.highlight import highlight_lines
from jaxdbg_widgets.debugger.session import Session
from jaxdbg_widgets.debugger.shard_session import ShardSession
from jaxdbg_widgets.debugger.values import (
    RESULT_LIMIT,
    array_summary,
    is_array,
    short_repr,
    truncate,
    type_name,
)

VIEW_LIMIT = 64 * 1024
SOURCE_RADIUS = 25
SOURCE_LINE_LIMIT = 240
LOCALS_LIMIT = 80
HISTORY_SHOWN = 50
TRANSCRIPT_SHOWN = 40
OUTPUT_SHOWN = RESULT_LIMIT
COMPARE_CELL = 80
_HIDDEN_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})


class ViewBuilder:
    """Builds view states for one session, caching per-frame work (highlighting, summaries)."""

    def __init__(self, session: Session, *, limit: int = VIEW_LIMIT) -> None:
        self.session = session
        self.limit = limit
        self._sources: dict[int, dict[str, Any]] = {}
        self._locals: dict[tuple[int, int], list[dict[str, Any]]] = {}

    def build(self, status: str = "waiting") -> dict[str, Any]:
        """The whole state for the front end, at most ``limit`` bytes of JSON."""
        session = self.session
        frames = session.frames
        state: dict[str, Any] = {
            "status": status,
            "header": self._header(),
            "frames": [_frame_row(f) for f in frames],
            "selected": session.selected,
            "show_internal": session.show_internal,
            "internal_count": session.internal_count,
            "source": self._source(session.frame) if frames else None,
            "locals": self._locals_rows() if frames else [],
            "transcript": [
                {"command": e.command, "output": truncate(e.output, OUTPUT_SHOWN), "error": e.error}
                for e in session.transcript[-TRANSCRIPT_SHOWN:]
            ],
            "history": session.history[-HISTORY_SHOWN:],
        }
        return fit(state, self.limit)

    def forget(self) -> None:
        """Drop cached summaries (they hold only text, but belong to a finished session)."""
        self._sources.clear()
        self._locals.clear()

    def _header(self) -> dict[str, Any]:
        session = self.session
        frame = session.frame if session.frames else None
        batch = (
            {
                "index": session.batch_index,
                "size": session.batch_size,
                "element": session.batch_element,
            }
            if session.batch_size is not None
            else None
        )
        return {
            "file": truncate(display_filename(frame.filename), SOURCE_LINE_LIMIT) if frame else "",
            "line": frame.lineno if frame else 0,
            "function": truncate(frame.function, SOURCE_LINE_LIMIT) if frame else "",
            "thread": session.thread_label,
            "batch": batch,
            "hit": session.hit,
            "location": truncate(session.location, 2 * SOURCE_LINE_LIMIT),
        }

    def _source(self, frame: FrameView) -> dict[str, Any]:
        key = id(frame)
        if key not in self._sources:
            self._sources[key] = _source_window(frame)
        return self._sources[key]

    def _locals_rows(self) -> list[dict[str, Any]]:
        session = self.session
        key = (id(session.frame), session.batch_index)
        if key not in self._locals:
            self._locals[key] = locals_rows(session.frame_locals(), session.frame.batched)
        return self._locals[key]


class ShardViewBuilder:
    """Builds view states for a shard session: the selected shard's view plus the device
    selector and the last compare, with one cached :class:`ViewBuilder` per shard."""

    def __init__(self, shards: ShardSession, *, limit: int = VIEW_LIMIT) -> None:
        self.shards = shards
        self.limit = limit
        self._builders: dict[int, ViewBuilder] = {}

    def build(self, status: str = "waiting") -> dict[str, Any]:
        """The selected shard's state with the shared transcript and a ``shards`` block."""
        shards = self.shards
        session = shards.session
        builder = self._builders.get(id(session))
        if builder is None:
            builder = self._builders[id(session)] = ViewBuilder(session, limit=self.limit)
        state = builder.build(status)
        state["transcript"] = [
            {"command": e.command, "output": truncate(e.output, OUTPUT_SHOWN), "error": e.error}
            for e in shards.transcript[-TRANSCRIPT_SHOWN:]
        ]
        state["history"] = shards.history[-HISTORY_SHOWN:]
        state["header"] = dict(state["header"], hit=shards.hit)
        state["shards"] = shard_block(shards)
        return fit(state, self.limit)

    def forget(self) -> None:
        """Drop every shard's cached summaries."""
        for builder in self._builders.values():
            builder.forget()
        self._builders.clear()


def builder_for(session: Session | ShardSession) -> ViewBuilder | ShardViewBuilder:
    """The view builder that draws ``session``, a single hit or a shard session."""
    return ShardViewBuilder(session) if isinstance(session, ShardSession) else ViewBuilder(session)


def shard_block(shards: ShardSession) -> dict[str, Any]:
    """The device selector's rows (label, shard index, state) and the last compare's values."""
    devices = []
    for position, shard in enumerate(shards.shards):
        resume = shards.resume_of(position)
        row: dict[str, Any] = {
            "label": truncate(shard.label, SOURCE_LINE_LIMIT),
            "index": shards.shard_index(shard, position),
            "state": "waiting" if resume is None else resume.value,
        }
        if shard.element is not None:
            row["element"] = shard.element
        devices.append(row)
    compare = None
    if shards.compared is not None:
        expression, rows = shards.compared
        compare = {
            "expression": truncate(expression, SOURCE_LINE_LIMIT),
            "rows": [
                {"value": truncate(r.value, COMPARE_CELL), "error": r.error, "differs": r.differs}
                for r in rows
            ],
            "differing": sum(r.differs for r in rows),
        }
    return {
        "expected": shards.expected,
        "arrived": shards.arrived,
        "waiting": shards.waiting,
        "selected": shards.selected_index,
        "devices": devices,
        "compare": compare,
    }


def _frame_row(frame: FrameView) -> dict[str, Any]:
    return {
        "function": truncate(frame.function, SOURCE_LINE_LIMIT),
        "file": truncate(display_filename(frame.filename), SOURCE_LINE_LIMIT),
        "line": frame.lineno,
        "internal": frame.internal,
    }


def _source_window(frame: FrameView) -> dict[str, Any]:
    if frame.offset is None:
        return {"first": frame.lineno, "current": None, "lines": []}
    start = max(0, frame.offset - SOURCE_RADIUS)
    stop = min(len(frame.source), frame.offset + SOURCE_RADIUS + 1)
    lines = [truncate(line, SOURCE_LINE_LIMIT) for line in frame.source[start:stop]]
    return {
        "first": frame.first_lineno + start,
        "current": frame.offset - start,
        "lines": highlight_lines(lines),
    }


def locals_rows(
    values: dict[str, Any], batched: Collection[str] = frozenset()
) -> list[dict[str, Any]]:
    """Name, type, short repr and (for arrays) a summary of each shown local, at most LOCALS_LIMIT."""
    rows: list[dict[str, Any]] = []
    hidden = 0
    for name, value in values.items():
        if _hidden(name, value):
            continue
        if len(rows) == LOCALS_LIMIT:
            hidden += 1
            continue
        row: dict[str, Any] = {
            "name": truncate(str(name), SOURCE_LINE_LIMIT),
            "type": truncate(type_name(value), SOURCE_LINE_LIMIT),
            "batched": name in batched,
        }
        if is_array(value):
            row["summary"] = array_summary(value)
        else:
            row["repr"] = short_repr(value)
        rows.append(row)
    if hidden:
        rows.append({"name": "", "type": "", "repr": f"... {hidden} more", "more": hidden})
    return rows


def _hidden(name: Any, value: Any) -> bool:
    text = str(name)
    return text.startswith("_") or text in _HIDDEN_NAMES or isinstance(value, types.ModuleType)


def size_of(state: dict[str, Any]) -> int:
    """Bytes of the state as compact JSON, which is what travels to the browser."""
    return len(json.dumps(state, separators=(",", ":")).encode())


def fit(state: dict[str, Any], limit: int) -> dict[str, Any]:
    """Trim the least useful parts of ``state`` until it is at most ``limit`` bytes."""
    for trim in _TRIMS:
        if size_of(state) <= limit:
            return state
        trim(state)
    return state


def _trim_history(state: dict[str, Any]) -> None:
    state["history"] = [truncate(h, 200) for h in state["history"][-10:]]


def _trim_transcript(state: dict[str, Any]) -> None:
    state["transcript"] = [
        dict(e, output=truncate(e["output"], 500), command=truncate(e["command"], 200))
        for e in state["transcript"][-8:]
    ]


def _trim_source(state: dict[str, Any], keep: int = 8) -> None:
    source = state["source"]
    if source and source["current"] is not None:
        start = max(0, source["current"] - keep)
        source["lines"] = source["lines"][start : source["current"] + keep + 1]
        source["first"] += start
        source["current"] -= start


def _trim_locals(state: dict[str, Any]) -> None:
    state["locals"] = state["locals"][:20]


def _trim_frames(state: dict[str, Any]) -> None:
    frames = state["frames"]
    if len(frames) > 40:
        state["frames"] = frames[:40]
        state["selected"] = min(state["selected"], 39)


def _trim_compare(state: dict[str, Any]) -> None:
    compare = (state.get("shards") or {}).get("compare")
    if compare:
        compare["rows"] = [dict(r, value=truncate(r["value"], 24)) for r in compare["rows"]]


def _trim_everything(state: dict[str, Any]) -> None:
    state["transcript"] = state["transcript"][-1:]
    state["history"] = []
    state["locals"] = state["locals"][:5]
    _trim_source(state, keep=2)


_TRIMS = [
    _trim_history,
    _trim_transcript,
    _trim_source,
    _trim_locals,
    _trim_frames,
    _trim_compare,
    _trim_everything,
]

"""The JSON-able state a front end needs to draw a session, kept under a byte budget.

Values are summarized (reprs cut short, arrays reduced to statistics), so the payload stays
small whatever the program's data; :func:`fit` trims the transcript, source and locals if the
result would still be too large.
"""

from __future__ import annotations

import json
import types
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from jaxdbg_widgets.debugger.schema import (
    BatchPosition,
    Compare,
    ComparePictureRow,
    CompareTile,
    DebuggerView,
    DeviceRow,
    FrameRow,
    Header,
    LocalRow,
    Shards,
    Source,
    Status,
    TranscriptEntry,
)
from jaxdbg_widgets.debugger.session.base import Entry
from jaxdbg_widgets.debugger.session.compare_pictures import ComparePictures, Tile
from jaxdbg_widgets.debugger.session.frame_view import FrameView
from jaxdbg_widgets.debugger.session.shard_compare import CompareRow, shard_ranges, verdict
from jaxdbg_widgets.debugger.session.shard_compare import groups as compare_groups
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.session.values import (
    RESULT_LIMIT,
    array_summary,
    is_array,
    short_repr,
    truncate,
    type_name,
)
from jaxdbg_widgets.debugger.view.highlight import highlight_lines
from jaxdbg_widgets.pictures.colors import gradient_stops
from jaxdbg_widgets.pictures.schema import PictureView
from jaxdbg_widgets.pictures.thumbnail import small_picture, thumbnail
from jaxdbg_widgets.pictures.view import number_text

VIEW_LIMIT = 64 * 1024
SOURCE_RADIUS = 25
SOURCE_LINE_LIMIT = 240
LOCALS_LIMIT = 80
HISTORY_SHOWN = 50
TRANSCRIPT_SHOWN = 40
OUTPUT_SHOWN = RESULT_LIMIT
COMPARE_CELL = 80
COMPARE_GROUPS_SHOWN = 16
"""The largest groups of equal compare values the view lists; the verdict counts them all."""
_HIDDEN_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})


class ViewBuilder:
    """Builds view states for one session, caching per-frame work (highlighting, summaries)."""

    def __init__(self, session: Session, *, limit: int = VIEW_LIMIT) -> None:
        self.session = session
        self.limit = limit
        self._sources: dict[int, Source] = {}
        self._locals: dict[tuple[int, int], list[LocalRow]] = {}
        self._pictures: PictureCache = {}

    def build(self, status: Status = "waiting") -> DebuggerView:
        """The whole state for the front end, at most ``limit`` bytes of JSON."""
        session = self.session
        frames = session.frames
        state: DebuggerView = {
            "status": status,
            "header": self._header(),
            "frames": [_frame_row(f) for f in frames],
            "selected": session.selected,
            "show_internal": session.show_internal,
            "internal_count": session.internal_count,
            "source": self._source(session.frame) if frames else None,
            "locals": self._locals_rows() if frames else [],
            "transcript": transcript_rows(session.transcript, self._pictures),
            "history": session.history[-HISTORY_SHOWN:],
        }
        return fit(state, self.limit)

    def forget(self) -> None:
        """Drop cached summaries (they hold only text, but belong to a finished session)."""
        self._sources.clear()
        self._locals.clear()
        self._pictures.clear()

    def _header(self) -> Header:
        session = self.session
        frame = session.frame if session.frames else None
        total = session.batch_total  # set whenever batch_size is
        batch: BatchPosition | None = (
            {"index": session.batch_element, "size": total, "element": session.batch_element}
            if session.batch_size is not None and total is not None
            else None
        )
        return {
            "file": truncate(frame.shown_file, SOURCE_LINE_LIMIT) if frame else "",
            "line": frame.shown_line if frame else 0,
            "function": truncate(frame.function, SOURCE_LINE_LIMIT) if frame else "",
            "thread": session.thread_label,
            "batch": batch,
            "stop": session.stop,
            "location": truncate(session.location, 2 * SOURCE_LINE_LIMIT),
        }

    def _source(self, frame: FrameView) -> Source:
        key = id(frame)
        if key not in self._sources:
            self._sources[key] = _source_window(frame)
        return self._sources[key]

    def _locals_rows(self) -> list[LocalRow]:
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

    def build(self, status: Status = "waiting") -> DebuggerView:
        """The selected shard's state with the shared transcript and a ``shards`` block."""
        shards = self.shards
        session = shards.session
        builder = self._builders.get(id(session))
        if builder is None:
            builder = self._builders[id(session)] = ViewBuilder(session, limit=self.limit)
        state = builder.build(status)
        state["transcript"] = transcript_rows(shards.transcript, builder._pictures)
        state["history"] = shards.history[-HISTORY_SHOWN:]
        state["header"] = {**state["header"], "stop": f"breakpoint #{shards.hit}"}
        state["shards"] = shard_block(shards, status)
        return fit(state, self.limit)

    def forget(self) -> None:
        """Drop every shard's cached summaries."""
        for builder in self._builders.values():
            builder.forget()
        self._builders.clear()


def shard_block(shards: ShardSession, status: Status = "waiting") -> Shards:
    """The device selector's rows (label, shard index, state) and the last compare.

    Once the session was interrupted, a shard that was never released says so, so a frozen
    record never shows it still waiting.
    """
    devices: list[DeviceRow] = []
    for position, shard in enumerate(shards.shards):
        resume = shards.resume_of(position)
        state = resume.value if resume is not None else _unreleased(status)
        row: DeviceRow = {
            "label": truncate(shard.label, SOURCE_LINE_LIMIT),
            "index": shards.shard_index(shard, position),
            "state": state,
        }
        if shard.element is not None:
            row["element"] = shard.element
        devices.append(row)
    compare: Compare | None = None
    if shards.compared is not None:
        compare = compare_block(*shards.compared)
    return {
        "expected": shards.expected,
        "arrived": shards.arrived,
        "waiting": shards.waiting,
        "selected": shards.selected_index,
        "devices": devices,
        "compare": compare,
    }


def compare_block(
    expression: str, rows: Sequence[CompareRow], pictures: ComparePictures | None = None
) -> Compare:
    """The last compare as the view shows it: each shard's answer, the groups, the verdict and
    the row of pictures on one scale when the answers are arrays of one shape."""
    return {
        "expression": truncate(expression, SOURCE_LINE_LIMIT),
        "rows": [
            {"value": truncate(r.value, COMPARE_CELL), "error": r.error, "differs": r.differs}
            for r in rows
        ],
        "differing": sum(r.differs for r in rows),
        "groups": [
            {
                "shards": shard_ranges([r.shard for r in group]),
                "count": len(group),
                "value": truncate(group[0].value, COMPARE_CELL),
                "error": group[0].error,
                "differs": group[0].differs,
            }
            for group in compare_groups(rows)[:COMPARE_GROUPS_SHOWN]
        ],
        "verdict": truncate(verdict(rows), SOURCE_LINE_LIMIT),
        "pictures": None if pictures is None else picture_row(rows, pictures),
    }


def picture_row(rows: Sequence[CompareRow], pictures: ComparePictures) -> ComparePictureRow:
    """The compare's pictures laid out: the shared scale's ends, each picture's label and the
    shard a click selects, and how many were left out."""
    scale = pictures.scale
    low, high = number_text(scale.vmin), number_text(scale.vmax)
    more = ""
    if pictures.hidden_groups:
        groups_ = "group" if pictures.hidden_groups == 1 else "groups"
        shards_ = "shard" if pictures.hidden_shards == 1 else "shards"
        more = f"{pictures.hidden_groups} more {groups_} ({pictures.hidden_shards} {shards_})"
    return {
        "scale": {
            "cmap": scale.cmap,
            "low": low,
            "high": high,
            "stops": gradient_stops(scale.cmap),
            "text": f"one scale: min {low} … max {high}",
        },
        "tiles": [_tile(rows, tile) for tile in pictures.tiles],
        "more": more,
    }


def _tile(rows: Sequence[CompareRow], tile: Tile) -> CompareTile:
    first = rows[tile.positions[0]]
    shown = [rows[p] for p in tile.positions]
    name = first.label if len(shown) == 1 else shard_ranges([r.shard for r in shown])
    return {
        "position": first.index,
        "label": truncate(name, COMPARE_CELL),
        "count": len(shown),
        "png": tile.png,
        "summary": tile.summary,
        "differs": any(r.differs for r in shown),
    }


def _unreleased(status: Status) -> Status:
    """A not yet released shard's state: ``interrupted`` with the session, else ``waiting``
    (the typed prompt that takes over from a silent widget still serves it)."""
    return "interrupted" if status == "interrupted" else "waiting"


def _frame_row(frame: FrameView) -> FrameRow:
    return {
        "function": truncate(frame.function, SOURCE_LINE_LIMIT),
        "file": truncate(frame.shown_file, SOURCE_LINE_LIMIT),
        "line": frame.shown_line,
        "internal": frame.internal,
    }


def _source_window(frame: FrameView) -> Source:
    if frame.offset is None:
        return {"first": frame.shown_line, "current": None, "lines": []}
    start = max(0, frame.offset - SOURCE_RADIUS)
    stop = min(len(frame.source), frame.offset + SOURCE_RADIUS + 1)
    lines = [truncate(line, SOURCE_LINE_LIMIT) for line in frame.source[start:stop]]
    return {
        "first": frame.first_lineno + start,
        "current": frame.offset - start,
        "lines": highlight_lines(lines),
    }


PictureCache = dict[int, tuple[Entry, PictureView | None]]
PICTURES_SHOWN = 2  # the latest array results drawn; earlier ones keep their text


def transcript_rows(entries: list[Entry], pictures: PictureCache) -> list[TranscriptEntry]:
    """The last ``TRANSCRIPT_SHOWN`` entries; the latest ``PICTURES_SHOWN`` ``p`` results that
    are arrays carry their pictures, drawn once per entry (``pictures`` keeps them by entry)."""
    shown = entries[-TRANSCRIPT_SHOWN:]
    drawn = {id(e) for e in [e for e in shown if e.value is not None][-PICTURES_SHOWN:]}
    rows: list[TranscriptEntry] = []
    for e in shown:
        row: TranscriptEntry = {
            "command": e.command,
            "output": truncate(e.output, OUTPUT_SHOWN),
            "error": e.error,
        }
        if id(e) in drawn:
            cached = pictures.get(id(e))
            if cached is None or cached[0] is not e:
                cached = pictures[id(e)] = (e, small_picture(e.value, e.command.partition(" ")[2]))
            if cached[1] is not None:
                row["picture"] = cached[1]
        rows.append(row)
    return rows


def locals_rows(values: dict[str, Any], batched: Collection[str] = frozenset()) -> list[LocalRow]:
    """Name, type, short repr and (for arrays) a summary of each shown local, at most LOCALS_LIMIT."""
    rows: list[LocalRow] = []
    hidden = 0
    for name, value in values.items():
        if _hidden(name, value):
            continue
        if len(rows) == LOCALS_LIMIT:
            hidden += 1
            continue
        row: LocalRow = {
            "name": truncate(str(name), SOURCE_LINE_LIMIT),
            "type": truncate(type_name(value), SOURCE_LINE_LIMIT),
            "batched": name in batched,
        }
        if is_array(value):
            row["summary"] = array_summary(value)
            thumb = thumbnail(value)
            if thumb is not None:
                row["thumb"] = thumb
        else:
            row["repr"] = short_repr(value)
        rows.append(row)
    if hidden:
        rows.append({"name": "", "type": "", "repr": f"... {hidden} more", "more": hidden})
    return rows


def _hidden(name: Any, value: Any) -> bool:
    text = str(name)
    return text.startswith("_") or text in _HIDDEN_NAMES or isinstance(value, types.ModuleType)


def size_of(state: Mapping[str, object]) -> int:
    """Bytes of the state as compact JSON, which is what travels to the browser."""
    return len(json.dumps(state, separators=(",", ":")).encode())


def fit(state: DebuggerView, limit: int) -> DebuggerView:
    """Trim the least useful parts of ``state`` until it is at most ``limit`` bytes."""
    for trim in _TRIMS:
        if size_of(state) <= limit:
            return state
        trim(state)
    return state


def _trim_history(state: DebuggerView) -> None:
    state["history"] = [truncate(h, 200) for h in state["history"][-10:]]


def _trim_transcript(state: DebuggerView) -> None:
    state["transcript"] = [
        {**e, "output": truncate(e["output"], 500), "command": truncate(e["command"], 200)}
        for e in state["transcript"][-8:]
    ]


def _trim_source(state: DebuggerView, keep: int = 8) -> None:
    source = state["source"]
    if source and source["current"] is not None:
        start = max(0, source["current"] - keep)
        source["lines"] = source["lines"][start : source["current"] + keep + 1]
        source["first"] += start
        source["current"] -= start


def _trim_locals(state: DebuggerView) -> None:
    state["locals"] = state["locals"][:20]


def _trim_frames(state: DebuggerView) -> None:
    frames = state["frames"]
    if len(frames) > 40:
        state["frames"] = frames[:40]
        state["selected"] = min(state["selected"], 39)


def _compare(state: DebuggerView) -> Compare | None:
    """The shard block's last compare, if the state has one."""
    shards = state.get("shards")
    return shards["compare"] if shards else None


def _trim_compare(state: DebuggerView) -> None:
    compare = _compare(state)
    if compare:
        compare["rows"] = [{**r, "value": truncate(r["value"], 24)} for r in compare["rows"]]


def _trim_compare_pictures(state: DebuggerView) -> None:
    compare = _compare(state)
    if compare:
        compare["pictures"] = None


def _trim_everything(state: DebuggerView) -> None:
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
    _trim_compare_pictures,
    _trim_everything,
]

"""The print log: every host print kept with its call site, cell, time and value summary.

:class:`PrintBuffer` is the model, a plain Python object (no kernel needed): a ring buffer of
:class:`LogEntry` fed by the core's print sinks, with filters by call site or text. It imports
no view; :class:`jaxdbg_widgets.notebook.printlog_display.PrintLog` adds the display hooks that
show it in a notebook as a live table (:mod:`jaxdbg_widgets.notebook.printlog_widget`).
"""

from __future__ import annotations

import collections
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from jaxdbg_widgets.core import processes
from jaxdbg_widgets.core.sinks import PrintRecord, add_print_sink
from jaxdbg_widgets.notebook import cells
from jaxdbg_widgets.pictures.model import worth_a_picture

DEFAULT_CAPACITY = 10_000
MAX_TEXT = 2_000
MAX_SUMMARY = 200


@dataclass(frozen=True)
class LogEntry:
    """One print as kept by the log; long texts and summaries are cut to bound memory."""

    index: int
    cell: int | None
    text: str
    filename: str
    place: str  # the file as named when it printed (``In[3]``, ``model.py``; ``?`` if unknown)
    lineno: int | None
    function: str | None
    timestamp: float
    values: tuple[tuple[str, str], ...]
    thread_id: int | None
    arrays: int = 0  # printed values that are arrays of rank 1 or more (drawn on request)
    process: int | None = None  # the JAX process that printed, in a multi-process job

    @property
    def site(self) -> str:
        """``In[3]:7 in f``: the file (or cell), line and function of the print call."""
        where = self.place if self.lineno is None else f"{self.place}:{self.lineno}"
        return f"{where} in {self.function}" if self.function else where

    @property
    def clock(self) -> str:
        """Local wall-clock time of the print, to the millisecond."""
        millis = int(self.timestamp * 1000) % 1000
        return f"{time.strftime('%H:%M:%S', time.localtime(self.timestamp))}.{millis:03d}"

    @property
    def summary(self) -> str:
        """The printed values: ``name=summary`` for keyword values, the summary alone for
        positional ones (their name is only their position)."""
        return ", ".join(
            value if name.isdigit() else f"{name}={value}" for name, value in self.values
        )

    def matches(self, query: str) -> bool:
        """Whether ``query`` occurs (ignoring case) in the call site, the printed text or the
        process label (``process 1``)."""
        needle = query.lower()
        return (
            needle in self.text.lower()
            or needle in self.site.lower()
            or (self.process is not None and needle == processes.label(self.process))
        )


def _checked_capacity(capacity: object) -> int:
    if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
        raise ValueError(f"capacity must be a positive integer, got {capacity!r}")
    return capacity


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _entry(index: int, cell: int | None, place: str, fields: tuple[Any, ...]) -> LogEntry:
    """The ``LogEntry`` for a kept print (a ``PrintRecord``'s fields), cut to the log's limits."""
    record = PrintRecord(*fields)
    return LogEntry(
        index=index,
        cell=cell,
        text=_cut(record.text, MAX_TEXT),
        filename=record.filename or "",
        place=place,
        lineno=record.lineno,
        function=record.function,
        timestamp=record.timestamp,
        values=tuple((str(name), _cut(str(value), MAX_SUMMARY)) for name, value in record.values),
        thread_id=record.thread_id,
        arrays=len(_arrays(record)),
        process=record.process,
    )


def _arrays(record: PrintRecord) -> list[tuple[str, Any]]:
    """``(name, value)`` of each printed value worth a picture (an array of rank 1 or more with
    more values than its text shows at a glance); a record holding only summaries has none."""
    if record.names is None:
        return []
    return [
        (str(name), value)
        for name, value in zip(record.names, record.printed, strict=True)
        if worth_a_picture(value)
    ]


_Buffer = TypeVar("_Buffer", bound="PrintBuffer")
_Kept = tuple[int, int | None, str, Any]  # index, cell, place, a PrintRecord's fields


@dataclass(frozen=True)
class LogPage:
    """The newest matching entries of a log and its counts, all read at one moment."""

    entries: list[LogEntry]
    matched: int
    seen: int
    kept: int
    dropped: int
    capacity: int


class PrintBuffer:
    """A bounded log of prints: the newest ``capacity`` entries are kept, older ones dropped.

    ``PrintBuffer()`` starts collecting at once; ``close()`` (or leaving a ``with`` block) stops.
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY, *, attach: bool = True) -> None:
        capacity = _checked_capacity(capacity)
        self._records: collections.deque[Any] = collections.deque(maxlen=capacity)
        self._cells: collections.deque[int | None] = collections.deque(maxlen=capacity)
        self._places: collections.deque[str] = collections.deque(maxlen=capacity)
        self._file_name = cells.FileNames()
        self._lock = threading.Lock()
        self._cache: dict[int, LogEntry] = {}
        self._cache_lock = threading.Lock()
        self._seen = 0
        self._listeners: list[Callable[[], None]] = []
        self._detach: Callable[[], None] | None = None
        if attach:
            self.attach()

    def attach(self) -> None:
        """Start receiving every host print (a no-op when already attached)."""
        if self._detach is None:
            self._detach = add_print_sink(self.add)

    def close(self) -> None:
        """Stop receiving prints; the entries already kept stay readable."""
        detach, self._detach = self._detach, None
        if detach is not None:
            detach()

    @property
    def capacity(self) -> int:
        """How many entries are kept; setting it keeps the newest that still fit."""
        return self._records.maxlen or 0

    @capacity.setter
    def capacity(self, capacity: int) -> None:
        capacity = _checked_capacity(capacity)
        with self._lock:
            self._records = collections.deque(self._records, maxlen=capacity)
            self._cells = collections.deque(self._cells, maxlen=capacity)
            self._places = collections.deque(self._places, maxlen=capacity)
        for listener in tuple(self._listeners):
            listener()

    @property
    def attached(self) -> bool:
        return self._detach is not None

    def __enter__(self: _Buffer) -> _Buffer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def add(self, record: Any) -> None:
        """Keep one ``PrintRecord``; this is the print sink, called on whatever thread printed.

        It is kept as a plain tuple of its fields, which the garbage collector stops tracking.
        """
        self.add_from(record, cells.current_cell())

    def add_from(self, record: Any, cell: int | None) -> None:
        """Keep one ``PrintRecord`` made elsewhere (another process) for notebook cell ``cell``.

        Its file is named now: a cell run again later gives the same file a new number.
        """
        place = self._file_name(record.filename) if record.filename else "?"
        with self._lock:
            self._records.append(tuple(record))
            self._cells.append(cell)
            self._places.append(place)
            self._seen += 1
        for listener in tuple(self._listeners):
            listener()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after every new entry (keep it cheap); returns the unsubscribe."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def clear(self) -> None:
        """Forget every kept entry; counting starts again from zero."""
        with self._lock, self._cache_lock:
            self._records.clear()
            self._cells.clear()
            self._places.clear()
            self._cache.clear()
            self._seen = 0
        for listener in tuple(self._listeners):
            listener()

    @property
    def seen(self) -> int:
        """How many prints reached the log (kept or since dropped)."""
        return self._seen

    @property
    def dropped(self) -> int:
        """How many of the oldest prints the ring buffer has let go."""
        return self._seen - len(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[LogEntry]:
        return iter(self.snapshot())

    def snapshot(self) -> list[LogEntry]:
        """The kept entries, oldest first, copied so printing threads may go on."""
        return self._built(self._kept())

    def _kept(self) -> list[_Kept]:
        """``(index, cell, place, record)`` of each kept print, oldest first; indices are
        consecutive."""
        return self._kept_and_seen()[0]

    def _kept_and_seen(self) -> tuple[list[_Kept], int]:
        """The kept prints and the count seen, read together while no print is added."""
        with self._lock:
            first = self._seen - len(self._records) + 1
            kept = list(
                zip(itertools.count(first), self._cells, self._places, self._records, strict=False)
            )
            return kept, self._seen

    def _built(self, kept: list[_Kept]) -> list[LogEntry]:
        """Entries for kept prints, each built once (on first read) and cached while kept."""
        with self._cache_lock:
            built = self._cache
            entries = []
            for index, cell, place, record in kept:
                entry = built.get(index)
                if entry is None:
                    entry = built[index] = _entry(index, cell, place, record)
                entries.append(entry)
            if len(built) > 2 * self.capacity:
                oldest = kept[0][0] if kept else 0
                for index in [i for i in built if i < oldest]:
                    del built[index]
        return entries

    def printed_arrays(self, index: int) -> list[tuple[str, Any]]:
        """The arrays print ``index`` carried, as it carried them (no new device transfer);
        empty once the print was dropped from the log."""
        for kept, _cell, _place, record in self._kept():
            if kept == index:
                return _arrays(PrintRecord(*record))
        return []

    def filter(
        self,
        text: str | None = None,
        *,
        site: str | None = None,
        cell: int | None = None,
        process: int | None = None,
    ) -> list[LogEntry]:
        """Entries whose text contains ``text``, call site contains ``site``, cell is ``cell``
        and JAX process is ``process``."""
        return [
            entry
            for entry in self.snapshot()
            if (text is None or text.lower() in entry.text.lower())
            and (site is None or site.lower() in entry.site.lower())
            and (cell is None or entry.cell == cell)
            and (process is None or entry.process == process)
        ]

    def processes(self) -> list[int]:
        """The JAX processes the kept entries came from, in order (empty in a single process)."""
        return sorted({e.process for e in self.snapshot() if e.process is not None})

    def newest(self, query: str = "", limit: int = 200) -> tuple[list[LogEntry], int]:
        """Up to ``limit`` newest entries matching ``query`` (oldest first) and the match count."""
        page = self.page(query, limit)
        return page.entries, page.matched

    def page(self, query: str = "", limit: int = 200) -> LogPage:
        """What a view of the log shows: the newest ``limit`` matches of ``query`` and counts
        taken from the same moment, so a view never pairs new rows with older counts."""
        kept, seen = self._kept_and_seen()
        if query:
            matches = [entry for entry in self._built(kept) if entry.matches(query)]
            entries, matched = matches[-limit:] if limit else [], len(matches)
        else:
            entries, matched = (self._built(kept[-limit:]) if limit else []), len(kept)
        return LogPage(entries, matched, seen, len(kept), seen - len(kept), self.capacity)

    def to_text(self, entries: Iterable[LogEntry] | None = None, *, times: bool = True) -> str:
        """A plain-text table of ``entries`` (default: all kept); ``times=False`` for stable output.

        A ``process`` column is added when any entry came from a multi-process job."""
        chosen = self.snapshot() if entries is None else list(entries)
        by_process = any(entry.process is not None for entry in chosen)
        rows = [
            (
                str(entry.index),
                "" if entry.cell is None else f"[{entry.cell}]",
                *((entry.clock,) if times else ()),
                *((("" if entry.process is None else str(entry.process)),) if by_process else ()),
                entry.site,
                entry.text.replace("\n", " ⏎ "),
            )
            for entry in chosen
        ]
        header = (
            "#",
            "cell",
            *(("time",) if times else ()),
            *(("process",) if by_process else ()),
            "call site",
            "text",
        )
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
        lines = [
            "  ".join([*(col.ljust(w) for col, w in zip(row, widths, strict=False)), row[-1]])
            for row in [header, *rows]
        ]
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({len(self)} kept of {self.seen} seen, capacity {self.capacity}, "
            f"{'attached' if self.attached else 'closed'})"
        )

"""What every debugger session is: the Protocol the backend serves, how a session ends, its
entries, and the command log all three kinds keep.

The three kinds (one hit, :mod:`.single`; the shards of a run, :mod:`.shards`; the hits of
every process of a job, :mod:`.cluster`) are served by the same front ends through
:class:`Served`; none of the serving code asks which kind it has.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from jaxdbg_widgets.core.shard_place import ShardPlace

HISTORY_LIMIT = 200
TRANSCRIPT_LIMIT = 200
HIT_MESSAGES = frozenset({"command", "frame", "batch", "internal"})
"""The widget messages one hit takes (see :mod:`jaxdbg_widgets.debugger.serve.protocol`)."""
SHARD_MESSAGES = HIT_MESSAGES | {"device", "compare"}
"""A session of several hits also picks one and compares them; it continues one by the command
``c N``, as typed or from its button."""


class Resume(str, enum.Enum):
    """How a session ended: resume this breakpoint, skip the rest of the run, or stop."""

    CONTINUE = "continue"
    CONTINUE_ALL = "continue_all"
    QUIT = "quit"


@dataclass(frozen=True)
class Entry:
    """One command and what it printed; ``error`` marks ``*** ...`` lines; ``value`` is a ``p``
    result that is an array, kept so a view can draw its picture."""

    command: str
    output: str
    error: bool = False
    value: Any = field(default=None, compare=False, repr=False)


class CommandLog:
    """A session's typed-command history, its transcript, and the line an empty command repeats.

    Shared by one breakpoint hit's ``Session`` and the ``ShardSession`` that gathers many, so
    both answer the command line alike.
    """

    resume: Resume | None

    def __init__(self, history: Sequence[str] = ()) -> None:
        self.transcript: list[Entry] = []
        self.history: list[str] = list(history)[-HISTORY_LIMIT:]
        self._last_command = ""

    def note(self, command: str, output: str, *, error: bool = False) -> Entry:
        """Record something that is not a typed command (a frame click, a bad message)."""
        entry = Entry(command, output, error)
        self._record(entry)
        return entry

    def _next_line(self, line: str) -> str:
        """The command to run for ``line``: stripped, or the last one when empty; remembered.

        Empty only when ``line`` is blank and nothing ran before; raises once the session ended.
        """
        if self.resume is not None:
            raise RuntimeError("this breakpoint session has already ended")
        line = line.strip() or self._last_command
        if line:
            self._last_command = line
            self._remember(line)
        return line

    def _remember(self, line: str) -> None:
        if not self.history or self.history[-1] != line:
            self.history.append(line)
            del self.history[:-HISTORY_LIMIT]

    def _record(self, entry: Entry) -> None:
        self.transcript.append(entry)
        del self.transcript[:-TRANSCRIPT_LIMIT]


def place_of(session: Any) -> ShardPlace:
    """Where ``session``'s hit ran: the place its breakpoint passed, else its device text."""
    return session.shard if session.shard is not None else ShardPlace(device=session.device)


@dataclass(eq=False)
class Hit:
    """One shard's hit: where it ran, its session, and how (once) it was released."""

    shard: ShardPlace
    session: Any
    """The hit's own :class:`~.single.Session`."""
    resume: Resume | None = None
    released: threading.Event = field(default_factory=threading.Event)


class Served(Protocol):
    """What the backend's front ends serve: one hit, the shards of a run, or a job's hits.

    ``view_kind`` names the builder that draws it (:mod:`jaxdbg_widgets.debugger.view.builders`);
    ``messages`` the widget messages it takes. ``version`` changes, and ``changed`` (``None``
    where nothing changes on another thread) is notified, when shards or processes arrive.
    A session taking ``device`` and ``compare`` messages is also a
    :class:`ServedHits`.
    """

    view_kind: str
    messages: frozenset[str]
    resume: Resume | None
    location: str
    hit: int
    thread_id: int | None
    device: str | None
    batch_size: int | None
    history: list[str]
    transcript: list[Entry]

    @property
    def version(self) -> int: ...

    @property
    def changed(self) -> threading.Condition | None: ...

    @property
    def thread_label(self) -> str: ...

    @property
    def batch_label(self) -> str: ...

    def run(self, line: str) -> Entry: ...

    def note(self, command: str, output: str, *, error: bool = False) -> Entry: ...

    def context(self, num_lines: int = 2) -> str: ...

    def select_frame(self, index: int) -> None: ...

    def select_batch(self, element: int) -> None: ...

    def set_show_internal(self, show: bool) -> None: ...

    def close(self) -> None: ...


class ServedHits(Served, Protocol):
    """A session over several hits: the widget picks one, compares them, continues one."""

    def select_device(self, which: int | str) -> Any: ...

    def compare_in_view(self, expression: str) -> Entry: ...


class Held(Served, Protocol):
    """A session an engine's desk holds for the notebook: one hit, or its devices' shards."""

    @property
    def arrived(self) -> int: ...

    @property
    def waiting(self) -> int: ...

    def hit_states(self) -> list[dict[str, str]]:
        """Each hit's ``label`` and ``state`` (``waiting`` or how it went on)."""
        ...

    def continue_hit(self, index: int) -> None: ...

    def compare_set(self) -> tuple[Any, list[Hit]]:
        """The session a compare evaluates in first, and every hit it compares."""
        ...

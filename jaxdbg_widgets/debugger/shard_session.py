"""One debugger session for every shard of a run: the hits gathered as they arrive.

A breakpoint inside ``shard_map`` over N devices is hit N times, once per device (and once per
``vmap`` element under ``jax.debug.breakpoint``). :class:`ShardSession` gathers those hits into
one session: a device selector (``dev N``) switches the locals, frames and ``p`` to that
shard, ``compare EXPR`` evaluates one expression in every gathered shard and marks the shards
whose value differs from the most common one, ``c`` releases every shard, ``c N`` releases
shard N alone, and ``q`` quits them all. Device threads add their hit and wait for its release
(:meth:`ShardSession.wait`); the front end drives the rest. It is a plain object: no kernel,
no widget, so tests and benchmarks drive it directly.
"""

from __future__ import annotations

import bisect
import math
import re
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets.debugger.frame_view import FrameView
from jaxdbg_widgets.debugger.session import (
    CommandLog,
    Entry,
    Resume,
    Session,
    split_command,
)
from jaxdbg_widgets.debugger.values import CELL_LIMIT, describe_error, short_repr, truncate

_DEVICE = re.compile(r"(?P<device>[A-Za-z]+ \d+) \((?P<position>[^()]*)\)\Z")
_ELEMENT = re.compile(r"(?:^|, )vmap element (?P<element>\d+)\Z")
_AXIS = re.compile(r"(?P<name>[^=,]+)=(?P<index>\d+)\Z")
_PMAP = re.compile(r"pmap index (?P<index>\d+)\Z")
_CONTINUE = frozenset({"continue", "c", "cont"})
_CONTINUE_ALL = frozenset({"continue_all", "ca"})
_QUIT = frozenset({"quit", "q", "exit", "EOF"})
_DEVICE_COMMANDS = frozenset({"dev", "device"})
_COMPARE = frozenset({"compare", "cmp"})
CONTINUED = "(continued)"
"""A continued shard's compare value: its program has moved on, its values are gone."""
SHARD_HELP = [
    ("dev [N|name]", "list the gathered shards, or select shard N (or a device by name)"),
    ("compare expr", "evaluate expr in every gathered shard; differing shards are marked"),
    ("c [N]", "continue every shard, or only shard N"),
]


@dataclass(frozen=True)
class Shard:
    """Where one hit ran: its label, device name, mesh position and ``vmap`` element."""

    label: str
    device: str | None = None
    position: tuple[tuple[str, int], ...] = ()
    element: int | None = None

    @property
    def order(self) -> tuple[Any, ...]:
        """Mesh position first, then ``vmap`` element: the same order whatever the arrival."""
        return (tuple(i for _, i in self.position), -1 if self.element is None else self.element)

    @property
    def where(self) -> str:
        """The mesh position as ``x=3, y=1`` (``pmap index 3`` for ``pmap``), else ``""``."""
        return ", ".join(
            f"pmap index {i}" if name.startswith("_") else f"{name}={i}"
            for name, i in self.position
        )


def parse_shard(label: str | None) -> Shard:
    """Read a breakpoint's device label (``CPU 3 (x=3), vmap element 2``) back into a Shard."""
    text = (label or "").strip()
    element = None
    found = _ELEMENT.search(text)
    if found:
        element = int(found.group("element"))
        text = text[: found.start()]
    device = None
    found = _DEVICE.match(text)
    if found:
        device, text = found.group("device"), found.group("position")
    position: list[tuple[str, int]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        axis, pmap = _AXIS.match(part), _PMAP.match(part)
        if axis:
            position.append((axis.group("name").strip(), int(axis.group("index"))))
        elif pmap:
            position.append(("_pmap", int(pmap.group("index"))))
        elif device is None:
            device = part
    return Shard(label or "", device, tuple(position), element)


@dataclass
class _Hit:
    shard: Shard
    session: Session
    resume: Resume | None = None
    released: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class CompareRow:
    """One shard's value of a compared expression; ``differs`` marks a minority value."""

    index: int
    label: str
    value: str
    error: bool = False
    differs: bool = False


class ShardSession(CommandLog):
    """The gathered hits of one breakpoint across the shards of a run, and the user's actions.

    ``expected`` is how many hits the run will make when known (the mesh size, times the
    ``vmap`` batch for per-element hits); ``axis_sizes`` gives shard indices in mesh order.
    """

    def __init__(
        self,
        *,
        expected: int | None = None,
        axis_sizes: Sequence[int] | None = None,
        history: Sequence[str] = (),
    ) -> None:
        self.expected = expected if expected and expected > 0 else None
        self.axis_sizes = tuple(axis_sizes) if axis_sizes else None
        super().__init__(history)
        self._resume: Resume | None = None
        self.compared: tuple[str, list[CompareRow]] | None = None
        self._hits: list[_Hit] = []
        self._keys: list[tuple[Any, ...]] = []
        self._by_label: dict[str, _Hit] = {}
        self._selected: _Hit | None = None
        self._picked = False
        self._stop_claimed = False
        self.version = 0
        """Counts every change a front end must redraw: arrivals, picks, commands."""
        self.error: BaseException | None = None
        """What ended the session other than a command (an interrupt), for every shard to raise."""
        self._lock = threading.RLock()
        self._arrived = threading.Condition(self._lock)

    @property
    def resume(self) -> Resume | None:
        """How the whole session ended (``None`` while any shard may still be answered)."""
        return self._resume

    @resume.setter
    def resume(self, resume: Resume) -> None:
        """End the session: every waiting shard, and any still to arrive, gets ``resume``."""
        with self._lock:
            self._finish(resume)

    # Gathering, from device threads.

    def add(self, session: Session) -> Shard:
        """Gather one hit (its ``device`` label says which shard); returns its Shard.

        A hit that arrives after ``c``, ``ca`` or ``q`` is released at once with that answer.
        """
        shard = parse_shard(session.device)
        with self._lock:
            if shard.label in self._by_label:
                raise ValueError(f"shard {shard.label!r} is already gathered")
            hit = _Hit(shard, session)
            key = (*shard.order, len(self._hits))
            at = bisect.bisect(self._keys, key)
            self._keys.insert(at, key)
            self._hits.insert(at, hit)
            self._by_label[shard.label] = hit
            if self.resume is not None:
                self._release(hit, self.resume)
            elif not self._picked:
                self._selected = self._hits[0]
            self.version += 1
            self._arrived.notify_all()
        return shard

    def wait(self, shard: Shard, timeout: float | None = None) -> Resume | None:
        """Block the hit's own thread until its shard is released; its answer, or ``None``."""
        hit = self._by_label[shard.label]
        hit.released.wait(timeout)
        return hit.resume

    def wait_resumed(self, timeout: float) -> bool:
        """Wait until the whole session has an answer (``c``, ``ca``, ``q`` or an error)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: self.resume is not None, timeout)

    def has(self, label: str | None) -> bool:
        """Whether the shard labelled ``label`` is already gathered."""
        with self._lock:
            return (label or "") in self._by_label

    @property
    def complete(self) -> bool:
        """Whether every expected shard has arrived (never, when the count is unknown)."""
        return self.expected is not None and self.arrived >= self.expected

    def wait_for_hits(self, count: int, timeout: float, quiet: float | None = None) -> bool:
        """Wait until ``count`` hits are gathered, at most ``timeout`` seconds, or until none
        has arrived for ``quiet`` seconds (shards a predicate skipped never arrive)."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self._hits) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                seen = len(self._hits)
                step = left if quiet is None else min(left, quiet)
                arrived = self._arrived.wait_for(lambda n=seen: len(self._hits) > n, step)
                if not arrived and quiet is not None:
                    return False
            return True

    # What the front end reads.

    @property
    def shards(self) -> list[Shard]:
        """The gathered shards in mesh order."""
        with self._lock:
            return [h.shard for h in self._hits]

    @property
    def arrived(self) -> int:
        """How many hits are gathered so far."""
        return len(self._hits)

    @property
    def selected_index(self) -> int:
        """Position of the selected shard in :attr:`shards` (0 before any hit)."""
        with self._lock:
            return self._hits.index(self._selected) if self._selected is not None else 0

    @property
    def session(self) -> Session:
        """The selected shard's session: locals, frames and ``p`` read from it."""
        if self._selected is None:
            raise LookupError("no shard has reached the breakpoint yet")
        return self._selected.session

    @property
    def shard(self) -> Shard:
        """The selected shard."""
        if self._selected is None:
            raise LookupError("no shard has reached the breakpoint yet")
        return self._selected.shard

    def resume_of(self, position: int) -> Resume | None:
        """How the shard at ``position`` was released, ``None`` while it waits."""
        return self._hits[position].resume

    def shard_index(self, shard: Shard, position: int | None = None) -> int:
        """The shard's index: row-major in the mesh when its axis sizes are known, else its
        ``position`` among the gathered shards (looked up when not given)."""
        sizes = self.axis_sizes
        if sizes and len(sizes) == len(shard.position):
            index = 0
            for (_, i), size in zip(shard.position, sizes, strict=True):
                index = index * size + i
            return index
        if position is not None:
            return position
        with self._lock:
            return next(n for n, h in enumerate(self._hits) if h.shard == shard)

    @property
    def waiting(self) -> int:
        """How many gathered shards still wait at the breakpoint."""
        with self._lock:
            return sum(h.resume is None for h in self._hits)

    # The Session interface the protocol and the front ends drive.

    thread_id = None
    """A shard session is served from its own thread, never a device's."""

    @property
    def hit(self) -> int:
        """The breakpoint's number in its run: the lowest of its shards' hit counts."""
        with self._lock:
            return min((h.session.hit for h in self._hits), default=0)

    @property
    def location(self) -> str:
        """Where the breakpoint is: ``body (In[3]:5)``."""
        return self.session.location

    @property
    def device(self) -> str:
        """The selected shard's label."""
        return self.shard.label

    @property
    def batch_size(self) -> int | None:
        """The selected shard's ``vmap`` batch size, if batched."""
        return self.session.batch_size

    @property
    def batch_index(self) -> int:
        """The selected shard's selected ``vmap`` element."""
        return self.session.batch_index

    @property
    def thread_label(self) -> str:
        """``8 shards, CPU 0 (x=0) selected``: how many are gathered and which one is shown."""
        return f"{self.arrived} shards, {self.shard.label} selected"

    def context(self, num_lines: int = 2) -> str:
        """The selected shard's ``print_context``."""
        return self.session.context(num_lines)

    def claim_stop(self) -> bool:
        """``True`` for the one shard that carries a quit or an error to the cell; the others
        of the run are released without it, so the cell sees the stop once."""
        with self._lock:
            claimed, self._stop_claimed = self._stop_claimed, True
            return not claimed

    def end(self, error: BaseException) -> None:
        """End every shard because of ``error`` (an interrupt, a failed front end): each
        shard's thread raises it, so every shard of the run stops by the same rule."""
        with self._lock:
            self.error = error
            self._finish(Resume.QUIT)

    def select_device(self, which: int | str) -> Shard:
        """Select a shard by position in :attr:`shards`, or by its label or device name."""
        with self._lock:
            self._selected = self._find(which)
            self._picked = True
            self.version += 1
            return self._selected.shard

    def select_frame(self, index: int) -> None:
        """Select a frame of the selected shard."""
        self.session.select_frame(index)

    def select_batch(self, index: int) -> None:
        """Select the ``vmap`` element of the selected shard."""
        self.session.select_batch(index)

    def set_show_internal(self, show: bool) -> None:
        """Show or hide internal frames in every shard, so switching keeps the same frames."""
        with self._lock:
            for hit in self._hits:
                hit.session.set_show_internal(show)

    def run(self, line: str) -> Entry:
        """Run one command line: shard commands here, the rest in the selected shard."""
        line = self._next_line(line)
        if not line:
            return Entry("", "")
        name, arg = split_command(line)
        with self._lock:
            try:
                result = self._dispatch(line, name, arg)
                entry = (
                    Entry(line, result.output, result.error)
                    if isinstance(result, Entry)
                    else Entry(line, result)
                )
            except Exception as err:
                entry = Entry(line, f"*** {describe_error(err)}", error=True)
        self._record(entry)
        return entry

    def compare(self, expression: str) -> list[CompareRow]:
        """``expression`` in every waiting shard (same frame depth and ``vmap`` element as the
        selected shard); rows whose value differs from the most common one are marked."""
        if not expression.strip():
            raise SyntaxError("compare needs an expression")
        code = compile(expression, "<jdb>", "eval")
        with self._lock:
            reference = self._selected.session if self._selected else None
            depth = reference.selected if reference else 0
            batch = reference.batch_index if reference else 0
            raw = [
                (n, h.shard.label, None if h.resume else _evaluate(h.session, code, depth, batch))
                for n, h in enumerate(self._hits)
            ]
        answers = [answer for _, _, answer in raw if answer is not None]
        counts = Counter(value for value, error in answers if not error)
        top = counts.most_common(2)
        tied = len(top) == 2 and top[0][1] == top[1][1]
        common = top[0][0] if top and not tied else None  # a tie has no most common value
        single = len(counts) <= 1 and all(not error for _, error in answers)
        rows = [
            CompareRow(n, label, CONTINUED)
            if answer is None
            else CompareRow(
                n, label, answer[0], answer[1], not single and (answer[1] or answer[0] != common)
            )
            for n, label, answer in raw
        ]
        self.compared = (expression, rows)
        return rows

    def close(self) -> None:
        """Drop every shard's frames and values."""
        with self._lock:
            for hit in self._hits:
                hit.session.close()

    # Commands.

    def _dispatch(self, line: str, name: str, arg: str) -> Entry | str:
        if name in _DEVICE_COMMANDS:
            return self._cmd_device(arg)
        if name in _COMPARE:
            return _compare_text(arg, self.compare(arg))
        if name in _CONTINUE:
            return self._cmd_continue(arg)
        if name in _CONTINUE_ALL:
            self._finish(Resume.CONTINUE_ALL)
            return "Continuing every shard; skipping the remaining breakpoints of this run."
        if name in _QUIT:
            self._finish(Resume.QUIT)
            return "Quitting: every shard of the run is stopped."
        if self._selected is None:
            raise LookupError("no shard has reached the breakpoint yet")
        if self._selected.resume is not None:
            raise ValueError(
                f"{self._selected.shard.label} has continued; select a waiting shard with dev N"
            )
        entry = self._selected.session.run(line)
        if name in ("help", "h") and not arg:
            width = max(len(usage) for usage, _ in SHARD_HELP)
            extra = "\n".join(f"  {u.ljust(width)}  {s}" for u, s in SHARD_HELP)
            return Entry(line, f"{entry.output}\nShard commands:\n{extra}")
        return entry

    def _cmd_device(self, arg: str) -> str:
        if arg:
            which: int | str = int(arg) if arg.isdigit() else arg
            self.select_device(which)
            return f"{self._describe(self._selected)}\n{self._selected.session.context()}"
        lines = [self._summary()]
        for n, hit in enumerate(self._hits):
            mark = ">" if hit is self._selected else " "
            lines.append(f"{mark} {n:>3}  {self._describe(hit)}")
        return "\n".join(lines)

    def _cmd_continue(self, arg: str) -> str:
        if not arg:
            self._finish(Resume.CONTINUE)
            return "Continuing every shard."
        hit = self._find(int(arg) if arg.isdigit() else arg)
        if hit.resume is not None:
            raise ValueError(f"{hit.shard.label} has already continued")
        self._release(hit, Resume.CONTINUE)
        self.version += 1
        if self.expected is not None and self.arrived >= self.expected and not self.waiting:
            self._finish(Resume.CONTINUE)
            return f"Continuing {hit.shard.label}; every shard has continued."
        if hit is self._selected:
            self._selected = next((h for h in self._hits if h.resume is None), hit)
        return f"Continuing {hit.shard.label}; {self.waiting} still waiting."

    def _finish(self, resume: Resume) -> None:
        """Release every gathered shard with ``resume``; later arrivals get it too."""
        self._resume = resume
        self.version += 1
        self._arrived.notify_all()
        for hit in self._hits:
            if hit.resume is None:
                self._release(hit, resume)

    @staticmethod
    def _release(hit: _Hit, resume: Resume) -> None:
        hit.resume = resume
        hit.session.resume = resume
        hit.released.set()

    def _find(self, which: int | str) -> _Hit:
        if isinstance(which, bool) or not isinstance(which, (int, str)):
            raise TypeError("a shard is chosen by its position or its device name")
        if isinstance(which, int):
            if not 0 <= which < len(self._hits):
                raise ValueError(
                    f"shard must be an integer in [0, {len(self._hits) - 1}]"
                    if self._hits
                    else "no shard has reached the breakpoint yet"
                )
            return self._hits[which]
        hit = self._by_label.get(which) or next(
            (h for h in self._hits if h.shard.device == which), None
        )
        if hit is None:
            raise ValueError(f"no gathered shard is named {which!r}")
        return hit

    def _describe(self, hit: _Hit) -> str:
        state = "waiting" if hit.resume is None else hit.resume.value
        where = hit.shard.where
        parts = [hit.shard.device or where or hit.shard.label]
        if hit.shard.device and where:
            parts.append(where)
        parts.append(f"shard {self.shard_index(hit.shard)}")
        if hit.shard.element is not None:
            parts.append(f"vmap element {hit.shard.element}")
        return f"{', '.join(parts)} ({state})"

    def _summary(self) -> str:
        of = f" of {self.expected}" if self.expected else ""
        return f"{self.arrived}{of} shards gathered, {self.waiting} waiting"

    def _record(self, entry: Entry) -> None:
        """Keep ``entry`` in the transcript and mark the view for a redraw."""
        self.version += 1
        super()._record(entry)


def _evaluate(session: Session, code: Any, depth: int, batch: int) -> tuple[str, bool]:
    """One shard's value of ``code`` at frame ``depth`` and batch element ``batch``."""
    frames: list[FrameView] = session.frames
    frame = frames[min(depth, len(frames) - 1)] if frames else None
    if frame is None:
        return "<no frames>", True
    kept = session.batch_index
    if session.batch_size is not None:
        session.batch_index = min(batch, session.batch_size - 1)
    try:
        namespace = dict(frame.globals)
        namespace.update(session.frame_locals(frame))
        return short_repr(eval(code, namespace)), False
    except BaseException as err:  # an expression may raise anything, even SystemExit
        return f"*** {truncate(describe_error(err), CELL_LIMIT)}", True
    finally:
        session.batch_index = kept


def _compare_text(expression: str, rows: list[CompareRow]) -> str:
    """The compare table as transcript text: one row per shard, differing rows marked."""
    width = max((len(r.label) for r in rows), default=0)
    lines = [f"{expression} in {len(rows)} shards:"]
    lines += [
        f"{'!' if r.differs else ' '} {r.index:>3}  {r.label.ljust(width)}  {r.value}" for r in rows
    ]
    differing = sum(r.differs for r in rows)
    lines.append(
        f"{differing} of {len(rows)} shards differ from the most common value (marked !)"
        if differing
        else f"all {len(rows)} shards agree"
    )
    return "\n".join(lines)


def expected_hits(axis_sizes: Sequence[int] | None, batch: int | None = None) -> int | None:
    """How many hits a run makes: the mesh size, times the batch for per-element hits."""
    if not axis_sizes:
        return None
    return math.prod(axis_sizes) * (batch or 1)

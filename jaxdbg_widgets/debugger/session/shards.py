"""One debugger session for every shard of a run: the hits gathered as they arrive.

A breakpoint inside ``shard_map`` over N devices is hit N times, once per device (and once per
``vmap`` element under ``jax.debug.breakpoint``). :class:`ShardSession` gathers those hits into
one session and answers the front ends as a single hit's :class:`Session` does: a device
selector (``dev N``) switches the locals, frames and ``p`` to that shard, ``compare EXPR``
evaluates one expression in every gathered shard, ``c`` releases every shard, ``c N`` shard N
alone, and ``q`` quits them all. It is built from three parts: the gathering of the device
threads' hits (:mod:`~jaxdbg_widgets.debugger.session.shard_gathering`), the shown shard
(:mod:`~jaxdbg_widgets.debugger.session.shard_selection`) and the commands with their text
(:mod:`~jaxdbg_widgets.debugger.session.shard_commands`). It is a plain object: no kernel, no
widget, so tests and benchmarks drive it directly.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session import commands, shard_commands
from jaxdbg_widgets.debugger.session.base import SHARD_MESSAGES, CommandLog, Entry, Resume
from jaxdbg_widgets.debugger.session.compare_pictures import (
    ComparePictures,
    DrawValues,
    compare_pictures,
)
from jaxdbg_widgets.debugger.session.forward import Forward
from jaxdbg_widgets.debugger.session.shard_compare import CompareRow, compare, verdict, without
from jaxdbg_widgets.debugger.session.shard_gathering import Gathering, Hit
from jaxdbg_widgets.debugger.session.shard_selection import Selection
from jaxdbg_widgets.debugger.session.single import Session, split_command
from jaxdbg_widgets.debugger.session.values import describe_error


class ShardSession(CommandLog):
    """The gathered hits of one breakpoint across the shards of a run, and the user's actions.

    ``expected`` is how many hits the run will make when known (the mesh size, times the
    ``vmap`` batch for per-element hits); ``axis_sizes`` gives shard indices in mesh order;
    ``draw_values`` draws a compare's arrays as pictures (none without it).
    """

    view_kind = commands.SHARDS
    messages = SHARD_MESSAGES
    thread_id = None
    """A shard session is served from its own thread, never a device's."""

    def __init__(
        self,
        *,
        expected: int | None = None,
        axis_sizes: Sequence[int] | None = None,
        history: Sequence[str] = (),
        draw_values: DrawValues | None = None,
    ) -> None:
        super().__init__(history)
        self.draw_values = draw_values
        self.gathering = Gathering(expected)
        self.selection = Selection(self.gathering)
        self.axis_sizes = tuple(axis_sizes) if axis_sizes else None
        self.compared: tuple[str, list[CompareRow], ComparePictures | None] | None = None
        # Set once the front end is done with the session (its widget frozen), so a released
        # shard returns to the cell only after the cell's record is final.
        self.served = threading.Event()

    # Gathering, from device threads.

    def add(self, session: Session) -> ShardPlace:
        """Gather one hit (its ``shard`` place says which shard); returns that place.

        A hit that arrives after ``c``, ``ca`` or ``q`` is released at once with that answer.
        """
        return self.gathering.add(session, self.selection.on_arrival).shard

    def wait(self, shard: ShardPlace, timeout: float | None = None) -> Resume | None:
        """Block the hit's own thread until its shard is released; its answer, or ``None``."""
        return self.gathering.wait(shard, timeout)

    def wait_resumed(self, timeout: float | None = None) -> bool:
        """Wait until the whole session has an answer (``c``, ``ca``, ``q`` or an error)."""
        return self.gathering.wait_answered(timeout)

    def wait_for_hits(self, count: int, quiet: float | None = None) -> bool:
        """Wait until ``count`` hits are gathered or the session is answered, or until none
        has arrived for ``quiet`` seconds (shards a predicate skipped never arrive)."""
        return self.gathering.wait_for_hits(count, quiet)

    def has(self, shard: ShardPlace) -> bool:
        """Whether the hit at ``shard`` is already gathered."""
        return self.gathering.has(shard)

    @property
    def resume(self) -> Resume | None:
        """How the whole session ended (``None`` while any shard may still be answered)."""
        return self.gathering.resume

    @resume.setter
    def resume(self, resume: Resume) -> None:
        """End the session: every waiting shard, and any still to arrive, gets ``resume``."""
        self.gathering.finish(resume)

    error = Forward[BaseException | None](
        "gathering", "What ended the session other than a command (an interrupt), for every shard."
    )

    def end(self, error: BaseException) -> None:
        """End every shard because of ``error`` (an interrupt, a failed front end): each
        shard's thread raises it, so every shard of the run stops by the same rule."""
        self.gathering.end(error)

    def claim_stop(self) -> bool:
        """``True`` for the one shard that carries a quit or an error to the cell; the others
        of the run are released without it, so the cell sees the stop once."""
        return self.gathering.claim_stop()

    # What the front end reads.

    changed = Forward[threading.Condition](
        "gathering", "Notified when a shard arrives or is released, and when the run ends."
    )

    version = Forward[int](
        "gathering", "Counts every change a front end must redraw: arrivals, picks, commands."
    )

    expected = Forward[int | None]("gathering", "How many hits the run makes, when known.")

    complete = Forward[bool](
        "gathering", "Whether every expected shard has arrived (never, when the count is unknown)."
    )

    arrived = Forward[int]("gathering", "How many hits are gathered so far.")

    waiting = Forward[int]("gathering", "How many gathered shards still wait at the breakpoint.")

    def hit_states(self) -> list[dict[str, str]]:
        """Each gathered shard's label and whether it waits or how it went on."""
        return [
            {"label": hit.shard.label, "state": hit.resume.value if hit.resume else "waiting"}
            for hit in self.gathering.hits
        ]

    def compare_set(self) -> tuple[Session, list[Hit]]:
        """The shown shard's session, and every gathered hit as it is now."""
        with self.gathering.lock:
            return self.session, list(self.gathering.hits)

    def continue_hit(self, index: int) -> None:
        """Continue the gathered shard ``index`` alone (``c N``)."""
        self.run(f"c {int(index)}")

    @property
    def shards(self) -> list[ShardPlace]:
        """The gathered shards in mesh order."""
        with self.gathering.lock:
            return [h.shard for h in self.gathering.hits]

    @property
    def selected_index(self) -> int:
        """Position of the selected shard in :attr:`shards` (0 before any hit)."""
        with self.gathering.lock:
            return self.selection.index

    @property
    def session(self) -> Session:
        """The selected shard's session: locals, frames and ``p`` read from it."""
        return self.selection.current().session

    @property
    def shard(self) -> ShardPlace:
        """The selected shard."""
        return self.selection.current().shard

    def resume_of(self, position: int) -> Resume | None:
        """How the shard at ``position`` was released, ``None`` while it waits."""
        return self.gathering.hits[position].resume

    def shard_index(self, shard: ShardPlace, position: int | None = None) -> int:
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
        with self.gathering.lock:
            return self.gathering.hits.index(self.gathering.find(shard))

    # The Session interface the protocol and the front ends drive.

    @property
    def hit(self) -> int:
        """The breakpoint's number in its run: the lowest of its shards' hit counts."""
        with self.gathering.lock:
            return min((h.session.hit for h in self.gathering.hits), default=0)

    location = Forward[str]("session", "Where the breakpoint is: ``body (In[3]:5)``.")

    @property
    def device(self) -> str:
        """The selected shard's label."""
        return self.shard.label

    batch_size = Forward[int | None](
        "session", "The selected shard's ``vmap`` batch size, if batched."
    )

    batch_index = Forward[int](
        "session", "The selected shard's selected ``vmap`` element, among those that stopped."
    )

    batch_label = Forward[str]("session", "The selected shard's ``batch index 2 of 5``.")

    @property
    def thread_label(self) -> str:
        """``8 shards, CPU 0 (x=0) selected``: how many are gathered and which one is shown."""
        return f"{self.arrived} shards, {self.shard.label} selected"

    def context(self, num_lines: int = 2) -> str:
        """The selected shard's ``print_context``."""
        return self.session.context(num_lines)

    def select_device(self, which: int | str) -> ShardPlace:
        """Select a shard by position in :attr:`shards`, or by its label or device name."""
        with self.gathering.lock:
            hit = self.selection.pick(which)
            self.gathering.touch()
            return hit.shard

    def select_frame(self, index: int) -> None:
        """Select a frame of the selected shard."""
        self.session.select_frame(index)

    def select_batch(self, index: int) -> None:
        """Select the ``vmap`` element of the selected shard."""
        self.session.select_batch(index)

    def set_show_internal(self, show: bool) -> None:
        """Show or hide internal frames in every shard, so switching keeps the same frames."""
        with self.gathering.lock:
            for hit in self.gathering.hits:
                hit.session.set_show_internal(show)

    def run(self, line: str) -> Entry:
        """Run one command line: shard commands here, the rest in the selected shard."""
        line = self._next_line(line)
        if not line:
            return Entry("", "")
        name, arg = split_command(line)
        with self.gathering.lock:
            try:
                result = shard_commands.dispatch(self, line, name, arg)
                entry = (
                    Entry(line, result.output, result.error, result.value)
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
        with self.gathering.lock:
            reference = self.selection.hit.session if self.selection.hit else None
            rows, values = compare(
                list(self.gathering.hits), expression, reference, self.shard_index
            )
            pictures = (
                compare_pictures(rows, values, self.draw_values) if self.draw_values else None
            )
        self.compared = (expression, rows, pictures)
        return rows

    def compare_in_view(self, expression: str) -> Entry:
        """``compare`` from the widget: the view shows the table, so the transcript keeps the
        command and its verdict line only."""
        line = f"compare {expression}"
        self._remember(line)
        try:
            entry = Entry(line, verdict(self.compare(expression)))
        except Exception as err:
            entry = Entry(line, f"*** {describe_error(err)}", error=True)
        self._record(entry)
        return entry

    def forget_compared(self, hit: Hit) -> None:
        """A released shard's compare value is gone with its program: show it as continued."""
        if self.compared is None:
            return
        expression, rows, pictures = self.compared
        position = self.gathering.hits.index(hit)
        self.compared = (expression, without(rows, position), pictures)

    def close(self) -> None:
        """Drop every shard's frames and values."""
        with self.gathering.lock:
            for hit in self.gathering.hits:
                hit.session.close()

    def _record(self, entry: Entry) -> None:
        """Keep ``entry`` in the transcript and mark the view for a redraw."""
        super()._record(entry)
        self.gathering.touch()


def expected_hits(axis_sizes: Sequence[int] | None, batch: int | None = None) -> int | None:
    """How many hits a run makes: the mesh size, times the batch for per-element hits."""
    if not axis_sizes:
        return None
    return math.prod(axis_sizes) * (batch or 1)

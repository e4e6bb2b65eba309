"""The hits of one breakpoint across the shards of a run, gathered from their device threads.

Each device thread adds its hit (:meth:`Gathering.add`) and blocks on its own event until its
shard is released (:meth:`Gathering.wait`). Hits are kept in mesh order whatever the order of
arrival. Once the whole gathering has an answer (``c``, ``ca``, ``q``, an error), every waiting
shard and every later arrival gets it.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session.base import Hit, Resume, place_of
from jaxdbg_widgets.debugger.session.single import Session


class Gathering:
    """Hits in mesh order, each released once; ``expected`` is how many the run makes, if known."""

    def __init__(self, expected: int | None = None) -> None:
        self.expected = expected if expected and expected > 0 else None
        self.hits: list[Hit] = []
        self._keys: list[tuple[Any, ...]] = []
        self._by_place: dict[ShardPlace, Hit] = {}
        self.resume: Resume | None = None
        """The answer for every shard once the whole gathering has one."""
        self.error: BaseException | None = None
        """What ended the gathering other than a command (an interrupt), for every shard."""
        self.version = 0
        """Counts every change a front end must redraw."""
        self._stop_claimed = False
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        """Notified on every arrival and when the gathering gets its answer."""

    def add(self, session: Session, on_arrival: Callable[[Hit], None]) -> Hit:
        """Gather one hit; ``on_arrival`` runs under the lock. Released at once when answered."""
        place = place_of(session)
        with self.lock:
            if place in self._by_place:
                raise ValueError(f"shard {place.label!r} is already gathered")
            hit = Hit(place, session)
            key = (*place.order, len(self.hits))
            at = bisect.bisect(self._keys, key)
            self._keys.insert(at, key)
            self.hits.insert(at, hit)
            self._by_place[place] = hit
            if self.resume is not None:
                release(hit, self.resume)
            else:
                on_arrival(hit)
            self.touch()
        return hit

    def touch(self) -> None:
        """Mark a change for the front end and wake whoever waits on :attr:`changed`."""
        with self.lock:
            self.version += 1
            self.changed.notify_all()

    def has(self, place: ShardPlace) -> bool:
        """Whether the hit at ``place`` is already gathered."""
        with self.lock:
            return place in self._by_place

    def wait(self, place: ShardPlace, timeout: float | None = None) -> Resume | None:
        """Block the hit's own thread until its shard is released; its answer, or ``None``."""
        hit = self._by_place[place]
        hit.released.wait(timeout)
        return hit.resume

    def wait_answered(self, timeout: float | None = None) -> bool:
        """Wait until the whole gathering has an answer (``c``, ``ca``, ``q`` or an error)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.resume is not None, timeout)

    def wait_for_hits(self, count: int, quiet: float | None = None) -> bool:
        """Wait until ``count`` hits are gathered or the gathering is answered; with ``quiet``,
        stop once no hit has arrived for that long (shards a predicate skipped never arrive)."""
        with self.changed:
            while len(self.hits) < count and self.resume is None:
                seen = len(self.hits)
                if not self.changed.wait_for(
                    lambda n=seen: len(self.hits) > n or self.resume is not None, quiet
                ):
                    return False
            return len(self.hits) >= count

    @property
    def arrived(self) -> int:
        """How many hits are gathered so far."""
        return len(self.hits)

    @property
    def complete(self) -> bool:
        """Whether every expected hit has arrived (never, when the count is unknown)."""
        return self.expected is not None and self.arrived >= self.expected

    @property
    def waiting(self) -> int:
        """How many gathered shards still wait at the breakpoint."""
        with self.lock:
            return sum(h.resume is None for h in self.hits)

    def find(self, place: ShardPlace) -> Hit:
        """The hit at ``place``."""
        return self._by_place[place]

    def finish(self, resume: Resume) -> None:
        """Answer the whole gathering: every waiting shard, and any still to arrive, gets it."""
        with self.lock:
            self.resume = resume
            for hit in self.hits:
                if hit.resume is None:
                    release(hit, resume)
            self.touch()

    def end(self, error: BaseException) -> None:
        """End every shard because of ``error``: each shard's thread raises it."""
        with self.lock:
            self.error = error
            self.finish(Resume.QUIT)

    def claim_stop(self) -> bool:
        """``True`` once only: for the one shard that carries a quit or an error to the cell."""
        with self.lock:
            claimed, self._stop_claimed = self._stop_claimed, True
            return not claimed


def release(hit: Hit, resume: Resume) -> None:
    """Let ``hit``'s device thread go on with ``resume``."""
    hit.resume = resume
    hit.session.resume = resume
    hit.released.set()

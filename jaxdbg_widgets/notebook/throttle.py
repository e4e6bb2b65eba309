"""Coalesce a burst of change notices into at most one flush per interval.

The print log may receive thousands of prints a second; the browser should get a few batched
updates instead. The clock and the timer are injectable so tests can drive time by hand.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Schedule = Callable[[float, Callable[[], None]], None]


def thread_timer(delay: float, action: Callable[[], None]) -> None:
    """Run ``action`` after ``delay`` seconds on a daemon timer thread."""
    timer = threading.Timer(delay, action)
    timer.daemon = True
    timer.start()


class Throttle:
    """``poke()`` often; ``flush()`` runs at most once per ``interval`` and never misses a poke.

    The first poke after a quiet period flushes after ``interval`` at most, so the last batch of
    a burst always arrives.
    """

    def __init__(
        self,
        flush: Callable[[], None],
        interval: float = 0.05,
        *,
        schedule: Schedule = thread_timer,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"interval must be positive, got {interval!r}")
        self.interval = interval
        self.flushes = 0
        self._flush = flush
        self._schedule = schedule
        self._clock = clock
        self._lock = threading.Lock()
        self._pending = False
        self._last_flush = float("-inf")

    def poke(self) -> None:
        """Note a change; schedules one flush unless one is already waiting."""
        with self._lock:
            if self._pending:
                return
            self._pending = True
            delay = max(0.0, self._last_flush + self.interval - self._clock())
        self._schedule(delay, self._fire)

    def _fire(self) -> None:
        with self._lock:
            self._pending = False
            self._last_flush = self._clock()
            self.flushes += 1
        self._flush()

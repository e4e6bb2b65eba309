"""How far a long search has gone, and when to say so: a pure model, shown by a sink.

A search is quiet until it has run ``DELAY`` seconds and checked ``MIN_EQUATIONS``
equations, so a small program never prints a progress line (saved notebooks stay the same on
a slow machine); after that the sink is called at most every ``INTERVAL`` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from jaxdbg_widgets.nans.report import SourceLine

DELAY = 1.0
"""Seconds a search runs before its progress is shown."""

MIN_EQUATIONS = 100
"""Equations a search checks before its progress is shown: fewer is never a long search."""

INTERVAL = 0.25
"""Least seconds between two updates of the progress line."""

STATES = ("running", "done", "interrupted")


@dataclass(frozen=True)
class SearchProgress:
    """One reading of a search: what it is searching, how far it went, where it is now."""

    function: str
    total: int
    checked: int = 0
    seconds: float = 0.0
    line: SourceLine | None = None
    state: str = "running"

    def text(self) -> str:
        """``find_nonfinite(f): 1,200 equations checked (program: 5,000) in 2.1 s, at ...``."""
        verb = {"running": "", "done": " done:", "interrupted": " interrupted:"}[self.state]
        text = (
            f"find_nonfinite({self.function}){verb} {self.checked:,} equations checked "
            f"(program: {self.total:,}, loops counted once) in {self.seconds:.1f} s"
        )
        if self.line is not None and self.state != "done":
            text += f", at {self.line.describe()}"
        return text


Sink = Callable[[SearchProgress], None]
"""Where progress goes: called with each reading shown, then once with the final one."""


class Ticker:
    """Counts a search's equations and hands ``sink`` a reading when one is due."""

    def __init__(
        self,
        function: str,
        total: int,
        sink: Sink,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.function = function
        self.total = total
        self.checked = 0
        self._sink = sink
        self._clock = clock
        self._start = clock()
        self._next = self._start + DELAY
        self._shown = False
        self._where: Callable[[], SourceLine | None] | None = None

    def add(self, count: int, where: Callable[[], SourceLine | None]) -> None:
        """``count`` more equations checked; ``where()`` gives the current line, read when shown."""
        self.checked += count
        self._where = where
        if self.checked < MIN_EQUATIONS:
            return
        now = self._clock()
        if now < self._next:
            return
        self._next = now + INTERVAL
        self._shown = True
        self._sink(self._reading(now, "running"))

    def finish(self, state: str) -> SearchProgress:
        """The final reading, handed to the sink too when progress was shown."""
        if state not in STATES[1:]:
            raise ValueError(f"a search ends {' or '.join(STATES[1:])}, not {state!r}")
        final = self._reading(self._clock(), state)
        if self._shown:
            self._sink(final)
        return final

    def _reading(self, now: float, state: str) -> SearchProgress:
        line = self._where() if self._where is not None else None
        return SearchProgress(
            self.function, self.total, self.checked, now - self._start, line, state
        )

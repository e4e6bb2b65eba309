"""One row of a benchmark table: our figure, the peer's figure from the same run, and the target."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """``ratio`` is peer / ours for times (bigger is better for us); a row with no peer
    (``peer`` None: nothing else does the job) has an absolute target."""

    name: str
    ours: float
    peer: float | None
    unit: str
    peer_name: str
    target: str
    met: bool
    command: str = ""

    @property
    def ratio(self) -> float | None:
        if self.peer is None:
            return None
        return self.peer / self.ours if self.ours else float("inf")


def timed(fn: Callable[[], object], *, repeat: int = 5, number: int = 1) -> float:
    """Median wall time of ``number`` calls of ``fn``, over ``repeat`` rounds, in seconds per call."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        rounds.append((time.perf_counter() - start) / number)
    return statistics.median(rounds)


def race(
    contenders: dict[str, Callable[[], object]],
    *,
    rounds: int = 5,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    """Median seconds per call of each contender, side by side: every round runs each contender
    once, and the order rotates from round to round so no one always goes first. ``clock`` may
    be ``time.process_time`` to count only this process's CPU time on a busy machine."""
    names = list(contenders)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            start = clock()
            contenders[name]()
            times[name].append(clock() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def format_table(rows: list[Row]) -> str:
    """A plain-text table with one line per row and the ratio against the peer; each row is
    followed by the command that reproduces it."""
    header = ("benchmark", "ours", "peer", "peer/ours", "target", "met")
    lines = [
        (
            r.name,
            f"{r.ours:.4g} {r.unit}",
            "—" if r.peer is None else f"{r.peer:.4g} {r.unit} ({r.peer_name})",
            "—" if r.ratio is None else f"{r.ratio:.2f}x",
            r.target,
            "yes" if r.met else "NO",
        )
        for r in rows
    ]
    widths = [max(len(str(c)) for c in col) for col in zip(header, *lines, strict=False)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*header)]
    for row, line in zip(rows, lines, strict=True):
        out.append(fmt.format(*line))
        if row.command:
            out.append(f"    $ {row.command}")
    return "\n".join(out)

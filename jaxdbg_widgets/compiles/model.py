"""The pure compile model: every program JAX traced, lowered and compiled, where, how long, why.

:class:`CompileReport` imports no view; :class:`jaxdbg_widgets.compiles.display.CompileReportView`
adds the hooks that show it. A recorder (``recorder.py``) feeds it one :class:`Program` per
trace, then the lowering and compile times of that program; the report works out the cause of
every trace after a function's first, and the per function and call site sums, worst first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from jaxdbg_widgets.compiles.diff import Difference, closest
from jaxdbg_widgets.compiles.signature import UNKNOWN_SITE, FunctionId, Signature, Site

STAGES = ("trace", "lower", "compile")
COMPARED = 64
"""A retrace is compared with at most this many of its function's latest signatures, so a
function traced thousands of times costs no more per trace."""


@dataclass(frozen=True)
class LineSize:
    """How many jaxpr equations (and StableHLO operations) one user line put in a program."""

    site: Site
    equations: int
    code: str = ""
    hlo: int = 0
    """StableHLO operations the line put in the lowered program (0: not counted)."""


@dataclass(frozen=True)
class Constant:
    """A constant captured into a program (a closed-over array), its size and the line using it."""

    type: str
    nbytes: int
    site: Site


@dataclass(frozen=True)
class ProgramSize:
    """What makes a program big: equations per user line and captured constants, biggest first."""

    equations: int
    lines: tuple[LineSize, ...]
    constants: tuple[Constant, ...]
    hlo: int = 0
    """StableHLO operations in the lowered program (0: not counted)."""


@dataclass
class Program:
    """One program JAX made: traced at ``call_site`` from ``function`` (or lowered/compiled only)."""

    name: str
    function: FunctionId | None
    call_site: Site
    signature: Signature | None
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    stages: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STAGES, 0))
    size: ProgramSize | None = None
    index: int = 0
    first: bool = True
    compared_with: int | None = None
    """The index of the earlier program whose signature is closest (the cause's baseline)."""
    cause: tuple[Difference, ...] = ()
    note: str = ""

    @property
    def key(self) -> tuple[str, str, int]:
        """The function this program belongs to, across new objects of one definition."""
        if self.function is not None:
            return self.function.key
        return (self.name, "(unknown)", 0)

    @property
    def total(self) -> float:
        """Seconds over every stage."""
        return sum(self.seconds.values())

    def cause_text(self) -> str:
        """The cause in one line: the first call, the differences, or the note."""
        if self.first:
            return "first call"
        if self.cause:
            return "; ".join(d.text() for d in self.cause)
        return self.note or "no difference found"


@dataclass(frozen=True)
class Row:
    """The sums for one function at one call site."""

    name: str
    defined: Site
    call_site: Site
    counts: dict[str, int]
    seconds: dict[str, float]
    programs: tuple[int, ...]

    @property
    def total(self) -> float:
        """Seconds over every stage."""
        return sum(self.seconds.values())


NO_DIFFERENCE = (
    "same function, arguments and context as an earlier call: JAX's caches were cleared "
    "(jax.clear_caches) or evicted one, or the function was garbage-collected"
)
EAGER_PARAMETERS = "JAX's own operation run outside jit, with new parameters (a new shape or axis)"
NOT_TRACED = "lowered or compiled with nothing traced anew: new argument shardings or devices"


def _no_difference(program: Program) -> str:
    """The note for a retrace whose signature equals an earlier one."""
    if program.function is not None and program.function.jax_own:
        return EAGER_PARAMETERS
    return NO_DIFFERENCE


class CompileReport:
    """Every trace, lowering and compile seen while watching, with causes and sums.

    Thread-safe: JAX may trace on several threads; each recorder event takes the lock once.
    """

    def __init__(self, *, hlo: bool = False) -> None:
        self._lock = threading.Lock()
        self.hlo = hlo
        """Whether each lowered program's StableHLO operations are counted per line (a miss
        then costs the recorder about 10% of JAX's time instead of 2%)."""
        self.programs: list[Program] = []
        self.listeners: list[Callable[[Program, str], None]] = []
        """Called after each stage is recorded (``max_compiles`` raises from here)."""

    def clear(self) -> None:
        """Forget every program."""
        with self._lock:
            self.programs = []

    def add(self, program: Program) -> Program:
        """Record a new program (a trace); its cause is worked out against earlier ones."""
        with self._lock:
            program.index = len(self.programs)
            if program.note == NOT_TRACED:
                self.programs.append(program)
                return program
            earlier = [p for p in self.programs if p.key == program.key and p.stages["trace"]]
            if earlier and program.signature is not None:
                signed = [p for p in earlier if p.signature is not None][-COMPARED:]
                found = closest(program.signature, [p.signature for p in signed])
                program.first = False
                if found is not None:
                    position, cause = found
                    program.compared_with = signed[position].index
                    program.cause = tuple(cause)
                    program.note = "" if cause else _no_difference(program)
            elif earlier:
                program.first = False
                program.note = NO_DIFFERENCE
            self.programs.append(program)
        return program

    def stage(self, program: Program, stage: str, seconds: float) -> None:
        """Add one stage's time to ``program`` and tell the listeners."""
        with self._lock:
            program.stages[stage] += 1
            program.seconds[stage] += seconds
        for listener in list(self.listeners):
            listener(program, stage)

    def compiles_of(self, key: tuple[str, str, int]) -> int:
        """How many programs of one function were compiled."""
        return sum(p.stages["compile"] for p in self.programs if p.key == key)

    def rows(self) -> list[Row]:
        """One row per function and call site, the most seconds first."""
        grouped: dict[tuple[object, ...], list[Program]] = {}
        for program in list(self.programs):
            site = program.call_site
            grouped.setdefault((*program.key, site.filename, site.lineno), []).append(program)
        rows = []
        for programs in grouped.values():
            first = programs[0]
            rows.append(
                Row(
                    name=first.function.name if first.function else first.name,
                    defined=first.function.defined if first.function else UNKNOWN_SITE,
                    call_site=first.call_site,
                    counts={s: sum(p.stages[s] for p in programs) for s in STAGES},
                    seconds={s: sum(p.seconds[s] for p in programs) for s in STAGES},
                    programs=tuple(p.index for p in programs),
                )
            )
        return sorted(rows, key=lambda r: (-r.total, -r.counts["trace"], r.name))

    def recompiles(self) -> list[Program]:
        """Every program after its function's first, in order."""
        return [p for p in list(self.programs) if not p.first]

    @property
    def total_seconds(self) -> float:
        """Seconds JAX spent in every stage of every program."""
        return sum(p.total for p in list(self.programs))

    def count(self, stage: str) -> int:
        """How many times ``stage`` (trace, lower or compile) ran while watching."""
        return sum(p.stages[stage] for p in list(self.programs))

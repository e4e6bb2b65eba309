"""The compile report as plain rows of text, shared by the text and HTML views."""

from __future__ import annotations

from dataclasses import dataclass

from jaxdbg_widgets.compiles.model import STAGES, CompileReport, Program
from jaxdbg_widgets.compiles.schema import CompileLine, CompilesView

SIZES = 5
"""How many programs' sizes are shown: the largest by equations, one per function."""
SIZE_LINES = 8
"""How many of a program's biggest lines are shown."""
CONSTANTS = 5


@dataclass(frozen=True)
class Table:
    """A titled table of text cells; ``numeric[i]`` right-aligns column ``i``."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]


def seconds(value: float) -> str:
    """``1.23 s``, ``45.6 ms`` or ``0.0 ms``: three significant digits, people's units."""
    if value >= 1:
        return f"{value:.2f} s"
    return f"{value * 1e3:.1f} ms"


def headline(report: CompileReport) -> str:
    """One line: how many traces, lowerings and compiles, how long in all, how many retraces."""
    counts = ", ".join(f"{report.count(stage)} {label}" for stage, label in _LABELS)
    return (
        f"compiles · {counts} · {seconds(report.total_seconds)} in all · "
        f"{len(report.recompiles())} after a function's first"
    )


_LABELS = (("trace", "traced"), ("lower", "lowered"), ("compile", "compiled"))


def summary_table(report: CompileReport) -> Table:
    """Per function and call site: counts and seconds per stage, the most seconds first."""
    rows = tuple(
        (
            row.name,
            row.defined.label,
            row.call_site.label,
            *(str(row.counts[s]) for s in STAGES),
            *(seconds(row.seconds[s]) for s in STAGES),
            seconds(row.total),
        )
        for row in report.rows()
    )
    header: tuple[str, ...] = ("function", "defined", "called at", "traced", "lowered", "compiled")
    header += ("trace", "lower", "compile", "total")
    return Table(
        "per function and call site, most time first", header, rows, (False,) * 3 + (True,) * 7
    )


def _program_name(program: Program) -> str:
    """The user's name for a program's function (JAX's name when unknown)."""
    return program.function.name if program.function is not None else program.name


def causes_table(report: CompileReport) -> Table:
    """Every program after its function's first, and why it was made again."""
    rows = tuple(
        (
            f"#{p.index}",
            _program_name(p),
            p.call_site.label,
            f"#{p.compared_with}" if p.compared_with is not None else "",
            p.cause_text(),
        )
        for p in report.recompiles()
    )
    header = ("program", "function", "called at", "vs", "cause")
    return Table(
        "why each was made again (against the closest earlier call)", header, rows, (False,) * 5
    )


def size_tables(report: CompileReport) -> list[Table]:
    """For the largest programs: equations and StableHLO operations per user line and captured
    constants, biggest first."""
    sized = [
        p
        for p in report.programs
        if p.size is not None and p.function is not None and not p.function.jax_own
    ]
    by_size = sorted(sized, key=lambda p: (-p.size.equations, p.index))  # type: ignore[union-attr]
    largest = list({p.key: p for p in reversed(by_size)}.values())  # each function's largest
    largest = sorted(largest, key=lambda p: (-p.size.equations, p.index))[:SIZES]  # type: ignore[union-attr]
    return [t for t in (_size_table(p, _size_title(p)) for p in largest) if t is not None]


def _size_title(program: Program) -> str:
    """``program #3 step: 1,204 equations, 1,530 StableHLO ops, 2.31 s to compile``."""
    size = program.size
    assert size is not None
    hlo = f"{size.hlo:,} StableHLO ops, " if size.hlo else ""
    return (
        f"program #{program.index} {_program_name(program)}: {size.equations:,} equations, "
        f"{hlo}{seconds(program.seconds['compile'])} to compile"
    )


def report_tables(report: CompileReport) -> list[Table]:
    """Every table of the report, in reading order; empty tables are left out."""
    tables = [summary_table(report), causes_table(report), *size_tables(report)]
    return [t for t in tables if t.rows]


@dataclass(frozen=True)
class Section:
    """One function's programs: a one-line summary, each program and its cause, and the size of
    its largest program (the HTML view folds it under the summary)."""

    summary: str
    programs: Table
    size: Table | None


def _size_table(program: Program, title: str) -> Table | None:
    """The lines and constants of one program, biggest first; ``None`` without a size."""
    size = program.size
    if size is None:
        return None
    rows = [
        (line.site.label, str(line.equations), str(line.hlo) if line.hlo else "", line.code)
        for line in size.lines[:SIZE_LINES]
    ]
    rows += [
        (c.site.label, "", "", f"constant {c.type}, {c.nbytes:,} bytes captured")
        for c in size.constants[:CONSTANTS]
    ]
    header = ("line", "equations", "HLO ops", "code")
    return Table(title, header, tuple(rows), (False, True, True, False))


def function_sections(report: CompileReport) -> list[Section]:
    """Per function, most time first: its programs with their causes, and what makes the
    largest one big."""
    grouped: dict[tuple[str, str, int], list[Program]] = {}
    for program in list(report.programs):
        grouped.setdefault(program.key, []).append(program)
    sections = []
    for programs in sorted(grouped.values(), key=lambda ps: -sum(p.total for p in ps)):
        first = programs[0]
        defined = first.function.defined.label if first.function else "(unknown)"
        again = sum(not p.first for p in programs)
        summary = (
            f"{_program_name(first)} ({defined}): {len(programs)} programs, {again} after the "
            f"first, {seconds(sum(p.total for p in programs))}"
        )
        rows = tuple(
            (
                f"#{p.index}",
                p.call_site.label,
                "/".join(str(p.stages[s]) for s in STAGES),
                seconds(p.total),
                p.cause_text(),
            )
            for p in programs
        )
        table = Table(
            "programs",
            ("program", "called at", "traced/lowered/compiled", "seconds", "cause"),
            rows,
            (False, False, True, True, False),
        )
        sized = [p for p in programs if p.size is not None]
        largest = max(sized, key=lambda p: (p.size.equations, -p.index)) if sized else None  # type: ignore[union-attr]
        size = _size_table(largest, _size_title(largest) + ", the largest") if largest else None
        sections.append(Section(summary, table, size))
    return sections


def _lines(program: Program) -> list[CompileLine]:
    """A program's biggest lines and large constants, as the page view lists them."""
    size = program.size
    if size is None:
        return []
    lines: list[CompileLine] = [
        {"label": line.site.label, "equations": line.equations, "hlo": line.hlo, "code": line.code}
        for line in size.lines[:SIZE_LINES]
    ]
    lines += [
        {
            "label": c.site.label,
            "equations": 0,
            "hlo": 0,
            "code": f"constant {c.type}, {c.nbytes:,} bytes captured",
        }
        for c in size.constants[:CONSTANTS]
    ]
    return lines


def compiles_view(report: CompileReport) -> CompilesView:
    """The report as the JSON the page view draws (same texts as the text and HTML views)."""
    programs = list(report.programs)
    return {
        "headline": headline(report),
        "rows": [
            {
                "name": row.name,
                "defined": row.defined.label,
                "call_site": row.call_site.label,
                "counts": [row.counts[s] for s in STAGES],
                "seconds": [row.seconds[s] for s in STAGES],
                "programs": list(row.programs),
            }
            for row in report.rows()
        ],
        "programs": [
            {
                "index": p.index,
                "call_site": p.call_site.label,
                "stages": [p.stages[s] for s in STAGES],
                "seconds": p.total,
                "cause": p.cause_text(),
                "lines": _lines(p),
            }
            for p in programs
        ],
    }

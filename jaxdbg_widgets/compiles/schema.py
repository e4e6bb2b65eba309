"""The compile view's JSON, declared once: the ``view`` model its page view draws.

``js/schema/compiles.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/compiles.js`` imports, so TypeScript's checker holds it to them.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CompileLine", "CompileProgram", "CompileRow", "CompilesModel", "CompilesView"]


class CompileLine(TypedDict):
    """One user line of a program: its label, jaxpr equations, StableHLO operations (0: not
    counted) and code (``equations`` 0: a constant)."""

    label: str
    equations: int
    hlo: int
    code: str


class CompileProgram(TypedDict):
    """One program: where it was called, its stage counts and seconds, cause and biggest lines."""

    index: int
    call_site: str
    stages: list[int]
    seconds: float
    cause: str
    lines: list[CompileLine]


class CompileRow(TypedDict):
    """One function at one call site: counts and seconds per stage, and its programs."""

    name: str
    defined: str
    call_site: str
    counts: list[int]
    seconds: list[float]
    programs: list[int]


class CompilesView(TypedDict):
    """The whole report: a headline, the rows worst first, and every program by index."""

    headline: str
    rows: list[CompileRow]
    programs: list[CompileProgram]


class CompilesModel(TypedDict):
    """The page view's state: the report and the open row (-1: none)."""

    view: CompilesView
    row: int

"""The communication widget's JSON, declared once: the ``view`` model the kernel sends, the
traits the browser sets, and the diagrams of the selected line.

``js/schema/comms.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/comms.js`` imports, so TypeScript's checker holds it to them. Tuples travel as
JSON arrays.
"""

from __future__ import annotations

from typing import TypedDict

from jaxdbg_widgets.memory.schema import HeatGrid
from jaxdbg_widgets.sharding.schema import ShardingView

__all__ = [
    "CollectiveDiagrams",
    "CommsHeat",
    "CommsLine",
    "CommsMemory",
    "CommsMesh",
    "CommsModel",
    "CommsSource",
    "CommsView",
    "LineDiagrams",
    "NoLine",
]


class CommsLine(TypedDict):
    """One source line's collectives (positions in ``collectives``), bytes per step and loops."""

    file: str
    line: int | None
    function: str
    origin: str
    label: str
    callers: list[str]
    sent: int
    human: str
    collectives: list[int]
    loops: list[int]


class CommsSource(TypedDict):
    """One file's annotated lines with a little context, as ``[number, text]``."""

    file: str
    name: str
    lines: list[tuple[int, str]]


class CommsHeat(HeatGrid):
    """The bytes-sent heatmap: the memory map's grid, and each device as ``[id, bytes, level]``
    with ``level`` indexing ``palette`` and ``text``."""

    devices: list[tuple[int, int, int]]
    palette: list[str]
    text: list[str]
    ticks: tuple[str, str, str]


class CommsMemory(TypedDict):
    """XLA's memory analysis per device as ``[label, text]`` rows, the peak and notes."""

    rows: list[tuple[str, str]]
    peak: str
    notes: list[str]


class CommsMesh(TypedDict):
    """The arguments' mesh: axis names, sizes and axis types."""

    axes: list[str]
    shape: list[int]
    types: list[str]


class CommsView(TypedDict):
    """Everything the map draws. A collective is ``[kind, name, result, sent, axes, group size,
    executions per step (0 outside loops, null when unknown), line]``; kind and axes index the
    ``kinds`` and ``axes`` tables; ``head`` is the one-line title."""

    head: str
    name: str
    partitions: int
    instructions: int
    summary: list[str]
    kinds: list[str]
    axes: list[str]
    collectives: list[tuple[int, str, str, int, int, int, int | None, int]]
    lines: list[CommsLine]
    sources: list[CommsSource]
    axis_totals: list[tuple[str, int, str]]
    heat: CommsHeat
    inputs: list[tuple[str, str, str, str]]
    outputs: list[tuple[str, str, str, str]]
    mismatches: list[tuple[str, str, str]]
    memory: CommsMemory | None
    remat: list[tuple[str, str]]
    unread: list[tuple[str, str, str]]
    mesh: CommsMesh | None
    notes: list[str]


class CollectiveDiagrams(TypedDict):
    """One collective's operand and result sharding diagrams, or a note saying why there are none."""

    collective: int
    title: str
    note: str
    operand: ShardingView | None
    result: ShardingView | None


class LineDiagrams(TypedDict):
    """The selected line's diagrams; ``more`` counts its collectives left out."""

    line: int
    items: list[CollectiveDiagrams]
    more: int


class NoLine(TypedDict):
    """No line selected: an empty object."""


class CommsModel(TypedDict):
    """The widget's synced state: the view, the selected line and its diagrams."""

    view: CommsView
    line: int
    line_view: LineDiagrams | NoLine

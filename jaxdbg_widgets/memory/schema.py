"""The memory widget's JSON, declared once: the ``view`` model the kernel sends, the traits
the browser sets, and the sharding diagram of the selected leaf.

``js/schema/memory.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/memory.js`` imports, so TypeScript's checker holds it to them. Tuples travel as
JSON arrays; rows the builder makes as lists (and tests compare with lists) are declared as lists.
"""

from __future__ import annotations

from typing import TypedDict

from jaxdbg_widgets.sharding.schema import ShardingView

__all__ = [
    "HeatGrid",
    "LeafTag",
    "LeafView",
    "Legend",
    "MemoryDevice",
    "MemoryGroup",
    "MemoryModel",
    "MemoryView",
    "NoLeaf",
    "ProgramView",
]


class HeatGrid(TypedDict):
    """The heatmap's grid: its size, labels and ``[row, col, device position]`` places."""

    rows: int
    cols: int
    row_label: str
    col_label: str
    title: str
    cells: list[list[int]]


class MemoryDevice(TypedDict):
    """One device's bytes, fill and text colours, and tooltip lines."""

    id: int
    process: int
    platform: str
    bytes: int
    human: str
    color: str
    text: str
    tooltip: list[str]


class Legend(TypedDict):
    """The colour bar's stops and its low, middle and high byte labels."""

    colors: list[str]
    ticks: list[str]


class MemoryGroup(TypedDict):
    """What the leaves of one sharding and shape share; ``set`` indexes ``device_sets``, and
    ``elements`` is one count for every device or one per device of the set."""

    set: int
    elements: int | list[int]
    shape: str
    spec: str
    shard_shape: str
    replication: int
    total_elements: int
    max_elements: int


class ProgramView(TypedDict):
    """XLA's memory analysis: ``[label, bytes or None, text]`` rows, the peak and notes; the
    positions of the devices running the program, and the ``[label, bytes, text]`` rows each
    holds beyond its leaves (aliased bytes negative)."""

    rows: list[tuple[str, int | None, str]]
    peak: tuple[int, str]
    notes: list[str]
    devices: list[int]
    device_rows: list[tuple[str, int, str]]


class MemoryView(TypedDict):
    """Everything the map draws; each leaf is ``[path, dtype number, group number]``, each
    process ``[process, bytes, text]`` and each dtype ``[name, itemsize]``."""

    source: str
    summary: list[str]
    grid: HeatGrid
    devices: list[MemoryDevice]
    legend: Legend
    processes: list[list[int | str]]
    limits: str
    leaves: list[list[str | int]]
    dtypes: list[list[str | int]]
    flagged: list[int]
    groups: list[MemoryGroup]
    device_sets: list[list[int]]
    flag_note: str
    program: ProgramView | None
    notes: list[str]


class LeafTag(TypedDict):
    """The position of the leaf a diagram belongs to."""

    leaf: int


class LeafView(ShardingView, LeafTag):
    """The selected leaf's sharding diagram, tagged with the leaf's position."""


class NoLeaf(TypedDict):
    """No leaf selected: an empty object."""


class MemoryModel(TypedDict):
    """The widget's synced state: the view, the selected device and leaf, the leaf's diagram."""

    view: MemoryView
    device: int
    leaf: int
    leaf_view: LeafView | NoLeaf

"""The sharding widget's JSON, declared once: the ``view`` model the kernel sends and the
traits the browser sets.

``js/schema/sharding.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/sharding.js`` imports, so TypeScript's checker holds it to them. Tuples travel as
JSON arrays; rows the builder makes as lists (and tests compare with lists) are declared as lists.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CellColumns", "FacetView", "ShardingModel", "ShardingView"]


class CellColumns(TypedDict):
    """One list per field, each in cell order; ``tip`` indexes the view's ``tips`` table."""

    label: list[str]
    devices: list[list[int]]
    index: list[str]
    tip: list[int]
    color: list[str | None]


class FacetView(TypedDict):
    """One grid of cells: its title, axis labels, track sizes and ``[row, col, cell]`` places."""

    title: str
    rows: int
    cols: int
    row_label: str
    col_label: str
    col_widths: list[int]
    row_heights: list[int | None]
    cells: list[tuple[int, int, int]]


class _ProcessMarks(TypedDict, total=False):
    """Keys a view saved by an earlier version lacks: the cells at a process boundary, each
    ``[cell, sides]``."""

    process_edges: list[list[int]]


class ShardingView(_ProcessMarks):
    """Everything the diagram draws: header, facets, cells, tooltip table and processes (each
    ``[process, device ids]``)."""

    kind: str
    summary: list[str]
    use_color: bool
    facets: list[FacetView]
    cells: CellColumns
    tips: list[tuple[str, str, str]]
    processes: list[list[int | str]]


class ShardingModel(TypedDict):
    """The widget's synced state: the view, the highlighted device ids and the zoom."""

    view: ShardingView
    selected: list[int]
    zoom: float

"""The view model: a JSON-ready description of a layout that the HTML and the widget both draw.

Labels, tooltips, colours and track sizes are decided here once, so the static HTML and the
interactive widget show the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.layout import Cell, Facet, ShardingLayout, sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions, cell_size, cell_text


def layout_and_view(
    shape: Sequence[int], sharding: Any, *, dtype: Any = None, options: RenderOptions
) -> tuple[ShardingLayout, dict[str, Any]]:
    """The layout of ``shape`` under ``sharding`` and its view model, built in one pause of the
    garbage collector (a collection between the two would walk every new object)."""
    with collector_paused():
        layout = sharding_layout(shape, sharding, dtype=dtype)
        return layout, _view_model(layout, options)


def view_model(layout: ShardingLayout, options: RenderOptions) -> dict[str, Any]:
    """Everything a front end needs to draw ``layout``: header, facets, cells, processes.

    ``cells`` holds one list per field (label, devices, index, tooltip, color), each in cell
    order: compact to send, and quick to build and to encode as JSON at thousands of shards.
    """
    with collector_paused():
        return _view_model(layout, options)


def _view_model(layout: ShardingLayout, options: RenderOptions) -> dict[str, Any]:
    cells = layout.cells
    colors = options.colors(layout) or [None] * len(cells)
    labels = [cell.label for cell in cells]
    if len(layout.process_indices) > 1:
        labels = [cell_text(layout, cell) for cell in cells]
    number = {id(cell): i for i, cell in enumerate(cells)}
    facets = layout.facets(options.rows, options.cols)
    tooltips = _tooltips(layout)
    return {
        "kind": layout.kind,
        "summary": summary_parts(layout),
        "use_color": options.use_color,
        "facets": [_facet(layout, facet, options, number, labels) for facet in facets],
        "cells": {
            "label": labels,
            "devices": [list(cell.device_ids) for cell in cells],
            "index": [cell.index_text for cell in cells],
            "tooltip": tooltips,
            "color": list(colors),
        },
        "processes": _processes(layout),
    }


def summary_parts(layout: ShardingLayout) -> list[str]:
    """Short phrases for the header: shape and dtype, mesh, spec, devices, replication."""
    shape = (
        "("
        + ", ".join(str(d) for d in layout.shape)
        + ("," if len(layout.shape) == 1 else "")
        + ")"
    )
    if layout.nominal_shape:
        parts = [f"splits {shape}"]
    else:
        parts = [f"shape {shape}" + (f" {layout.dtype}" if layout.dtype else "")]
    if layout.mesh_axes:
        parts.append("mesh " + " ".join(f"{name}={size}" for name, size in layout.mesh_axes))
    spec = layout.spec_text()
    if spec is not None:
        parts.append(spec)
    parts.append(
        f"{_counted(len(layout.devices), 'device')}, {_counted(len(layout.cells), 'shard')}"
    )
    replicas = {len(cell.devices) for cell in layout.cells}
    if layout.is_fully_replicated:
        parts.append("fully replicated")
    elif replicas != {1}:
        copies = "/".join(str(r) for r in sorted(replicas))
        over = layout.replicated_axes()
        parts.append(f"{copies} copies per shard" + (f" (over {', '.join(over)})" if over else ""))
    if len(layout.process_indices) > 1:
        parts.append(f"{len(layout.process_indices)} processes")
    return parts


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def tooltip_lines(layout: ShardingLayout, cell: Cell) -> list[str]:
    """What hovering a cell tells: devices, processes, index slices, shard shape and bytes."""
    return _tooltips(layout, [cell])[0].split("\n")


def _tooltips(layout: ShardingLayout, cells: Sequence[Cell] | None = None) -> list[str]:
    """Each cell's tooltip as one string of lines; the shape and byte lines are written once
    per distinct shard shape and the process line once per set of processes."""
    shape_lines: dict[tuple[int, ...], str] = {}
    process_lines: dict[tuple[int, ...], str] = {}
    tooltips = []
    for cell in layout.cells if cells is None else cells:
        shape = shape_lines.get(cell.shard_shape)
        if shape is None:
            shape = shape_lines[cell.shard_shape] = _shape_lines(layout, cell)
        processes = process_lines.get(cell.process_indices)
        if processes is None:
            processes = process_lines[cell.process_indices] = "process " + ",".join(
                map(str, cell.process_indices)
            )
        ids = (
            str(cell.device_ids[0])
            if len(cell.device_ids) == 1
            else ", ".join(map(str, cell.device_ids))
        )
        tooltips.append(f"{cell.platform} {ids}\n{processes}\nindex {cell.index_text}\n{shape}")
    return tooltips


def _shape_lines(layout: ShardingLayout, cell: Cell) -> str:
    dims = ", ".join(str(d) for d in cell.shard_shape)
    text = f"shard shape ({dims}{',' if len(cell.shard_shape) == 1 else ''})"
    size = layout.shard_bytes(cell)
    return text if size is None else f"{text}\n{size:,} bytes"


def _facet(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    number: dict[int, int],
    labels: list[str],
) -> dict[str, Any]:
    """Track sizes by JAX's rules, widened where a label would not fit (as rich's columns are)."""
    widths = [options.min_width] * facet.cols
    heights: list[int | None] = [None] * facet.rows
    size_of: dict[tuple[int, tuple[int, ...]], tuple[int, int | None]] = {}
    placed = []
    for r, c, cell in facet.cells:
        i = number[id(cell)]
        placed.append([r, c, i])
        key = (len(labels[i]), cell.shard_shape)
        size = size_of.get(key)
        if size is None:
            width, height = cell_size(layout, facet, cell, options)
            size = size_of[key] = (max(width, key[0] + 2), height)
        width, height = size
        if width > widths[c]:
            widths[c] = width
        if height is not None and height > (heights[r] or 0):
            heights[r] = height
    return {
        "title": facet.title,
        "rows": facet.rows,
        "cols": facet.cols,
        "row_label": "" if facet.row_dim is None else layout.dim_label(facet.row_dim),
        "col_label": "" if facet.col_dim is None else layout.dim_label(facet.col_dim),
        "col_widths": widths,
        "row_heights": heights,
        "cells": placed,
    }


def _processes(layout: ShardingLayout) -> list[list[Any]]:
    """``[process, "0-3, 8"]`` pairs: each process and its device ids folded into runs."""
    if len(layout.process_indices) == 1:
        return [[layout.process_indices[0], id_ranges([d.id for d in layout.devices])]]
    by_process: dict[int, list[int]] = {}
    for device in layout.devices:
        by_process.setdefault(device.process_index, []).append(device.id)
    return [[p, id_ranges(ids)] for p, ids in sorted(by_process.items())]


def id_ranges(ids: list[int]) -> str:
    """``0-3, 8`` for ``[0, 1, 2, 3, 8]``."""
    ordered = sorted(ids)
    if ordered and ordered == list(range(ordered[0], ordered[0] + len(ordered))):
        first, last = ordered[0], ordered[-1]
        return f"{first}-{last}" if first != last else f"{first}"
    runs: list[list[int]] = []
    for i in ordered:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)

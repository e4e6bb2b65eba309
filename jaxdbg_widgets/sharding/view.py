"""The view model: a JSON-ready description of a layout that the HTML and the widget both draw.

Labels, tooltips, colours and track sizes are decided here once, so the static HTML and the
interactive widget show the same thing.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.layout import Cell, Facet, ShardingLayout
from jaxdbg_widgets.sharding.options import RenderOptions, cell_size, cell_text


def view_model(layout: ShardingLayout, options: RenderOptions) -> dict[str, Any]:
    """Everything a front end needs to draw ``layout``: header, facets, cells, processes."""
    with collector_paused():
        return _view_model(layout, options)


def _view_model(layout: ShardingLayout, options: RenderOptions) -> dict[str, Any]:
    colors = options.colors(layout) or [None] * len(layout.cells)
    number = {cell.bounds: i for i, cell in enumerate(layout.cells)}
    labels = [cell_text(layout, cell) for cell in layout.cells]
    facets = layout.facets(options.rows, options.cols)
    return {
        "kind": layout.kind,
        "summary": summary_parts(layout),
        "use_color": options.use_color,
        "facets": [_facet(layout, facet, options, number, labels) for facet in facets],
        "cells": [
            _cell(layout, cell, label, color)
            for cell, label, color in zip(layout.cells, labels, colors, strict=True)
        ],
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
    replicas = {cell.replicas for cell in layout.cells}
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
    processes = ",".join(str(p) for p in cell.process_indices)
    lines = [
        f"{cell.platform} " + ", ".join(str(i) for i in cell.device_ids),
        f"process {processes}",
        f"index {cell.index_text}",
        "shard shape (" + ", ".join(str(d) for d in cell.shard_shape) + ")",
    ]
    size = layout.shard_bytes(cell)
    if size is not None:
        lines.append(f"{size:,} bytes")
    return lines


def _facet(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    number: dict[tuple[tuple[int, int], ...], int],
    labels: list[str],
) -> dict[str, Any]:
    """Track sizes by JAX's rules, widened where a label would not fit (as rich's columns are)."""
    widths = [options.min_width] * facet.cols
    heights: list[int | None] = [None] * facet.rows
    size_of: dict[tuple[int, ...], tuple[int, int | None]] = {}
    for r, c, cell in facet.cells:
        size = size_of.get(cell.shard_shape)
        if size is None:
            size = size_of[cell.shard_shape] = cell_size(layout, facet, cell, options)
        width, height = size
        widths[c] = max(widths[c], width, len(labels[number[cell.bounds]]) + 2)
        if height is not None:
            heights[r] = max(heights[r] or 0, height)
    return {
        "title": facet.title,
        "rows": facet.rows,
        "cols": facet.cols,
        "row_label": "" if facet.row_dim is None else layout.dim_label(facet.row_dim),
        "col_label": "" if facet.col_dim is None else layout.dim_label(facet.col_dim),
        "col_widths": widths,
        "row_heights": heights,
        "cells": [[r, c, number[cell.bounds]] for r, c, cell in facet.cells],
    }


def _cell(layout: ShardingLayout, cell: Cell, label: str, color: str | None) -> dict[str, Any]:
    return {
        "label": label,
        "devices": list(cell.device_ids),
        "processes": list(cell.process_indices),
        "index": cell.index_text,
        "tooltip": tooltip_lines(layout, cell),
        "color": color,
    }


def _processes(layout: ShardingLayout) -> list[list[Any]]:
    """``[process, "0-3, 8"]`` pairs: each process and its device ids folded into runs."""
    by_process: dict[int, list[int]] = {}
    for device in layout.devices:
        by_process.setdefault(device.process_index, []).append(device.id)
    return [[p, id_ranges(ids)] for p, ids in sorted(by_process.items())]


def id_ranges(ids: list[int]) -> str:
    """``0-3, 8`` for ``[0, 1, 2, 3, 8]``."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)

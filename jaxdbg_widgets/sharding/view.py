"""The view model: a JSON-ready description of a layout that the HTML and the widget both draw.

Labels, tooltips, colours and track sizes are decided here once, so the static HTML and the
interactive widget show the same thing.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from operator import attrgetter, itemgetter
from typing import Any

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.layout import Cell, Facet, ShardingLayout, sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions, shard_size


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
    labels = _labels(layout)
    facets = layout.facets(options.rows, options.cols)
    tooltips = _tooltips(layout)
    return {
        "kind": layout.kind,
        "summary": summary_parts(layout),
        "use_color": options.use_color,
        "facets": [_facet(layout, facet, options, labels) for facet in facets],
        "cells": {
            "label": labels,
            "devices": list(map(list, map(attrgetter("device_ids"), cells))),
            "index": [cell.index_text for cell in cells],
            "tooltip": tooltips,
            "color": list(colors),
        },
        "processes": _processes(layout),
    }


def _labels(layout: ShardingLayout) -> list[str]:
    """Each cell's :func:`cell_text`, with the process suffix written once per set of processes."""
    labels = list(map(attrgetter("label"), layout.cells))
    if len(layout.process_indices) <= 1:
        return labels
    processes = list(map(attrgetter("process_indices"), layout.cells))
    suffix = {held: " p" + ",".join(map(str, held)) for held in set(processes)}
    return list(map(str.__add__, labels, map(suffix.__getitem__, processes)))


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
    replicas = set(map(len, map(attrgetter("devices"), layout.cells)))
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
    per distinct shard shape, the process line once per set of processes, and the holders are
    read from the label (``TPU 0,1`` becomes ``TPU 0, 1``)."""
    cells = layout.cells if cells is None else cells
    shapes = list(map(attrgetter("shard_shape"), cells))
    by_shape = {shape: _shape_lines(layout, shape) for shape in set(shapes)}
    processes = list(map(attrgetter("process_indices"), cells))
    by_processes = {held: "process " + ",".join(map(str, held)) for held in set(processes)}
    several = set(map(len, map(attrgetter("device_ids"), cells))) != {1}
    holders = list(map(_holders, cells)) if several else list(map(attrgetter("label"), cells))
    return list(
        map(
            "{}\n{}\nindex {}\n{}".format,
            holders,
            map(by_processes.__getitem__, processes),
            map(attrgetter("index_text"), cells),
            map(by_shape.__getitem__, shapes),
        )
    )


def _holders(cell: Cell) -> str:
    """``TPU 0, 1``: the platform and the ids of the devices holding ``cell``."""
    if len(cell.device_ids) == 1:
        return cell.label
    return f"{cell.platform} " + cell.label[len(cell.platform) + 1 :].replace(",", ", ")


def _shape_lines(layout: ShardingLayout, shape: tuple[int, ...]) -> str:
    dims = ", ".join(str(d) for d in shape)
    text = f"shard shape ({dims}{',' if len(shape) == 1 else ''})"
    size = None if layout.itemsize is None else math.prod(shape) * layout.itemsize
    return text if size is None else f"{text}\n{size:,} bytes"


def _facet(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    labels: list[str],
) -> dict[str, Any]:
    """Track sizes by JAX's rules, widened where a label would not fit (as rich's columns are)."""
    down = list(map(itemgetter(0), facet.cells))
    across = list(map(itemgetter(1), facet.cells))
    widths, heights = _track_sizes(layout, facet, options, labels, down, across)
    return {
        "title": facet.title,
        "rows": facet.rows,
        "cols": facet.cols,
        "row_label": "" if facet.row_dim is None else layout.dim_label(facet.row_dim),
        "col_label": "" if facet.col_dim is None else layout.dim_label(facet.col_dim),
        "col_widths": widths,
        "row_heights": heights,
        "cells": list(map(list, zip(down, across, facet.numbers, strict=True))),
    }


def _track_sizes(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    labels: list[str],
    down: list[int],
    across: list[int],
) -> tuple[list[int], list[int | None]]:
    """Column widths and row heights, sized once per distinct shard shape and widened once per
    distinct label length in each column."""
    shapes = list(map(_shard_shape, map(itemgetter(2), facet.cells)))
    size_of = {shape: shard_size(layout, facet, shape, options) for shape in set(shapes)}
    lengths = map(len, map(labels.__getitem__, facet.numbers))
    widths = [options.min_width] * facet.cols
    heights: list[int | None] = [None] * facet.rows
    if len(size_of) == 1:  # one shard shape: only the label lengths vary
        ((width, height),) = size_of.values()
        for c, length in set(zip(across, lengths, strict=True)):
            widths[c] = max(widths[c], width, length + 2)
        for r in set(down) if height is not None else ():
            heights[r] = height
        return widths, heights
    for c, length, shape in set(zip(across, lengths, shapes, strict=True)):
        widths[c] = max(widths[c], size_of[shape][0], length + 2)
    for r, shape in set(zip(down, shapes, strict=True)):
        height = size_of[shape][1]
        if height is not None and height > (heights[r] or 0):
            heights[r] = height
    return widths, heights


_shard_shape = attrgetter("shard_shape")


def _processes(layout: ShardingLayout) -> list[list[Any]]:
    """``[process, "0-3, 8"]`` pairs: each process and its device ids folded into runs."""
    devices = layout.devices
    ids = list(map(itemgetter(0), devices))
    if len(layout.process_indices) == 1:
        return [[layout.process_indices[0], id_ranges(ids)]]
    processes = list(map(itemgetter(2), devices))
    if processes != sorted(processes):
        order = sorted(range(len(devices)), key=processes.__getitem__)
        processes = list(map(processes.__getitem__, order))
        ids = list(map(ids.__getitem__, order))
    starts = [bisect_left(processes, p) for p in layout.process_indices]
    ends = [*starts[1:], len(ids)]
    return [
        [p, id_ranges(ids[start:end])]
        for p, start, end in zip(layout.process_indices, starts, ends, strict=True)
    ]


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

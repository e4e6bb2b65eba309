"""The view model: a JSON-ready description of a layout that the HTML and the widget both draw.

Labels, tooltips, colours and track sizes are decided here once, so the static HTML and the
interactive widget show the same thing.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain, repeat
from operator import add, attrgetter, itemgetter, mul
from typing import Any

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.cells import consecutive_runs
from jaxdbg_widgets.sharding.layout import (
    Facet,
    FacetPlan,
    ShardingLayout,
    holders_text,
    process_edges,
    sharding_layout,
)
from jaxdbg_widgets.sharding.options import RenderOptions, shard_size
from jaxdbg_widgets.sharding.schema import FacetView, ShardingView


def layout_and_view(
    shape: Any, sharding: Any, *, dtype: Any = None, options: RenderOptions
) -> tuple[ShardingLayout, ShardingView]:
    """The layout of ``shape`` under ``sharding`` and its view model, built in one pause of the
    garbage collector (a collection between the two would walk every new object)."""
    with collector_paused():
        layout = sharding_layout(shape, sharding, dtype=dtype)
        return layout, _view_model(layout, options)


def view_model(layout: ShardingLayout, options: RenderOptions) -> ShardingView:
    """Everything a front end needs to draw ``layout``: header, facets, cells, processes.

    ``cells`` holds one list per field (label, devices, index, tip, color), each in cell order:
    compact to send, and quick to build and to encode as JSON at thousands of shards. A cell's
    tooltip is put together from its ``tip`` entry of ``tips`` (see :func:`tooltip_text`).
    """
    with collector_paused():
        return _view_model(layout, options)


def _view_model(layout: ShardingLayout, options: RenderOptions) -> ShardingView:
    cells = layout.cells
    fills = options.colors(layout)
    colors: list[str | None] = list(fills) if fills else [None] * len(cells)
    labels = _labels(layout)
    plan = layout.facet_plan(options.rows, options.cols)
    shapes = list(map(_shard_shape, cells))
    tracks = _uniform_track_sizes(layout, plan, options, labels, shapes)
    tips, tip_table = _tips(layout, shapes)
    view: ShardingView = {
        "kind": layout.kind,
        "summary": summary_parts(layout),
        "use_color": options.use_color,
        "facets": [
            _facet(layout, plan, f, options, labels, shapes, tracks)
            for f in range(len(plan.members))
        ],
        "cells": {
            "label": labels,
            "devices": list(map(attrgetter("device_ids"), cells)),
            "index": [cell.index_text for cell in cells],
            "tip": tips,
            "color": colors,
        },
        "tips": tip_table,
        "processes": _processes(layout),
    }
    # ``process_edges`` only where the grid has process boundaries; nothing for one process, so
    # a one-process view stays as earlier versions wrote it.
    edges = _process_edges(layout, plan)
    if edges:
        view["process_edges"] = edges
    return view


def _process_edges(layout: ShardingLayout, plan: FacetPlan) -> list[list[int]]:
    """``[cell, sides]`` for each cell whose neighbour in its facet, to the right or below, is
    held by other processes (see :func:`~jaxdbg_widgets.sharding.layout.process_edges`)."""
    if len(layout.process_indices) <= 1:
        return []
    held = list(map(attrgetter("process_indices"), layout.cells))
    edges: list[list[int]] = []
    for members in plan.members:
        at = {(plan.down[n], plan.across[n]): n for n in members}
        found = process_edges((r, c, held[n]) for (r, c), n in at.items())
        edges.extend([at[spot], sides] for spot, sides in found.items())
    return sorted(edges)


def _labels(layout: ShardingLayout) -> list[str]:
    """Each cell's :func:`cell_text`, with the process suffix written once per set of processes."""
    labels = list(map(attrgetter("label"), layout.cells))
    if len(layout.process_indices) <= 1:
        return labels
    processes = list(map(attrgetter("process_indices"), layout.cells))
    suffix = {held: " p" + ",".join(map(str, held)) for held in set(processes)}
    return list(map(str.__add__, labels, map(suffix.__getitem__, processes)))


def summary_parts(layout: ShardingLayout) -> list[str]:
    """Short phrases for the header: shape and dtype, mesh and its axis types, spec, devices,
    replication and partial sums."""
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
        mesh = "mesh " + " ".join(f"{name}={size}" for name, size in layout.mesh_axes)
        types = layout.axis_types_text()
        parts.append(mesh if types is None else f"{mesh} {types}")
    spec = layout.spec_text()
    if spec is not None:
        parts.append(spec)
    parts.append(
        f"{_counted(len(layout.devices), 'device')}, {_counted(len(layout.cells), 'shard')}"
    )
    parts.extend(_replication_parts(layout))
    if len(layout.process_indices) > 1:
        parts.append(f"{len(layout.process_indices)} processes")
    return parts


def _replication_parts(layout: ShardingLayout) -> list[str]:
    """How the devices holding one shard relate: copies (over the axes named), partial results
    still to be reduced over the unreduced axes and blocks of their own along Manual axes (never
    called copies), and the reduced axes."""
    replicas = set(map(len, map(attrgetter("devices"), layout.cells)))
    sizes = dict(layout.mesh_axes)
    own = layout.own_block_axes()
    partial = math.prod(sizes.get(axis, 1) for axis in (*layout.unreduced, *own))
    copies = sorted({max(r // partial, 1) for r in replicas})
    over = layout.replicated_axes()
    parts = []
    if layout.is_fully_replicated:
        parts.append("fully replicated")
    elif copies != [1]:
        counts = "/".join(map(str, copies))
        parts.append(f"{counts} copies per shard" + (f" (over {', '.join(over)})" if over else ""))
    if layout.unreduced:
        kind = layout.unreduced_kind or "sum"
        parts.append(f"unreduced over {', '.join(layout.unreduced)}: partial results of a {kind}")
    if own:
        parts.append(f"manual over {', '.join(own)}: each device's block its own, not copies")
    if layout.reduced:
        parts.append(f"reduced over {', '.join(layout.reduced)}: copies, gradient left unreduced")
    return parts


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _tips(
    layout: ShardingLayout, shapes: list[tuple[int, ...]]
) -> tuple[list[int], list[tuple[str, str, str]]]:
    """Each cell's tooltip as a number into a table of ``[platform, process line, shape lines]``
    (in order of first use), written once per distinct platform, processes and shard shape; a
    tooltip reads ``{platform} {device ids, comma-spaced}`` (summarised past
    :data:`~jaxdbg_widgets.sharding.layout.HOLDERS_LISTED`, see ``holders_text``), the process line, ``index {index}``
    and the shape lines, one per line (see :func:`tooltip_text`)."""
    cells = layout.cells
    processes = list(map(attrgetter("process_indices"), cells))
    by_processes = {held: "process " + ",".join(map(str, held)) for held in set(processes)}
    by_shape = {shape: _shape_lines(layout, shape) for shape in set(shapes)}
    platforms = set(map(attrgetter("platform"), cells))
    if len(platforms) == 1 and len(by_shape) == 1:  # tooltips differ at most by processes
        (platform,), (shape_text,) = platforms, by_shape.values()
        order = list(dict.fromkeys(processes))
        number = {held: k for k, held in enumerate(order)}
        tips = [(platform, by_processes[held], shape_text) for held in order]
        return _each(number, processes), tips
    keys = list(zip(map(attrgetter("platform"), cells), processes, shapes, strict=True))
    order = list(dict.fromkeys(keys))
    number = {key: k for k, key in enumerate(order)}
    tips = [(platform, by_processes[held], by_shape[shape]) for platform, held, shape in order]
    return _each(number, keys), tips


def tooltip_text(tip: Sequence[str], devices: Sequence[int], index: str) -> str:
    """The tooltip of a cell held by ``devices`` at ``index``, with its entry of the tips table."""
    platform, process, shape = tip
    return f"{platform} {holders_text(devices, ', ')}\n{process}\nindex {index}\n{shape}"


def _each(table: dict[Any, Any], keys: list[Any]) -> list[Any]:
    """``table[key]`` for each key, without the lookups when the table holds one entry."""
    if len(table) == 1:
        return [next(iter(table.values()))] * len(keys)
    return list(map(table.__getitem__, keys))


def _shape_lines(layout: ShardingLayout, shape: tuple[int, ...]) -> str:
    dims = ", ".join(str(d) for d in shape)
    text = f"shard shape ({dims}{',' if len(shape) == 1 else ''})"
    size = None if layout.itemsize is None else math.prod(shape) * layout.itemsize
    return text if size is None else f"{text}\n{size:,} bytes"


def _facet(
    layout: ShardingLayout,
    plan: FacetPlan,
    f: int,
    options: RenderOptions,
    labels: list[str],
    shapes: list[tuple[int, ...]],
    tracks: tuple[list[list[int]], list[list[int | None]]] | None,
) -> FacetView:
    """Facet ``f`` of ``plan`` with its track sizes (from ``tracks`` when the grid has one shard
    shape, else worked out here)."""
    members, title = plan.members[f], plan.titles[f]
    if isinstance(members, range):
        down = plan.down[members.start : members.stop]
        across = plan.across[members.start : members.stop]
    else:
        down = list(map(plan.down.__getitem__, members))
        across = list(map(plan.across.__getitem__, members))
    if tracks is None:
        facet = Facet(title, plan.row_dim, plan.col_dim, plan.rows, plan.cols, (), tuple(members))
        widths, heights = _track_sizes(layout, facet, options, labels, shapes, down, across)
    else:
        widths, heights = tracks[0][f], tracks[1][f]
    return {
        "title": title,
        "rows": plan.rows,
        "cols": plan.cols,
        "row_label": "" if plan.row_dim is None else layout.dim_label(plan.row_dim),
        "col_label": "" if plan.col_dim is None else layout.dim_label(plan.col_dim),
        "col_widths": widths,
        "row_heights": heights,
        "cells": list(zip(down, across, members, strict=True)),
    }


def _uniform_track_sizes(
    layout: ShardingLayout,
    plan: FacetPlan,
    options: RenderOptions,
    labels: list[str],
    shapes: list[tuple[int, ...]],
) -> tuple[list[list[int]], list[list[int | None]]] | None:
    """Every facet's column widths and row heights at once when all shards have one shape (None
    otherwise): JAX's size for that shape, widened to the longest label in each column."""
    if len(set(shapes)) != 1:
        return None
    facet = Facet("", plan.row_dim, plan.col_dim, plan.rows, plan.cols, ())
    width, height = shard_size(layout, facet, shapes[0], options)
    order = list(chain.from_iterable(plan.members))
    base = max(options.min_width, width)
    if plan.full():  # every facet a whole grid: the columns are a reshape away
        return _full_track_sizes(plan, labels, order, base, height)
    owners = list(
        chain.from_iterable(map(repeat, range(len(plan.members)), map(len, plan.members)))
    )
    columns = map(add, map(mul, owners, repeat(plan.cols)), map(plan.across.__getitem__, order))
    lengths = map(len, map(labels.__getitem__, order))
    longest = dict(sorted(set(zip(columns, lengths, strict=True))))
    widths = [[options.min_width] * plan.cols for _ in plan.members]
    for key, length in longest.items():
        f, c = divmod(key, plan.cols)
        widths[f][c] = max(base, length + 2)
    heights: list[list[int | None]] = [[None] * plan.rows for _ in plan.members]
    if height is not None:
        rows = map(add, map(mul, owners, repeat(plan.rows)), map(plan.down.__getitem__, order))
        for key in set(rows):
            f, r = divmod(key, plan.rows)
            heights[f][r] = height
    return widths, heights


def _full_track_sizes(
    plan: FacetPlan, labels: list[str], order: list[int], base: int, height: int | None
) -> tuple[list[list[int]], list[list[int | None]]]:
    """Track sizes of facets that each fill their grid (``order``: their cells, facet by facet,
    row-major): each column ``base`` wide or two more than its longest label."""
    import numpy as np

    lengths = np.fromiter(
        map(len, map(labels.__getitem__, order)), dtype=np.int64, count=len(order)
    )
    longest = lengths.reshape(len(plan.members), plan.rows, plan.cols).max(axis=1, initial=0)
    widths = np.maximum(longest + 2, base).tolist()
    return widths, [[height] * plan.rows for _ in plan.members]


def _track_sizes(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    labels: list[str],
    all_shapes: list[tuple[int, ...]],
    down: list[int],
    across: list[int],
) -> tuple[list[int], list[int | None]]:
    """Column widths and row heights, sized once per distinct shard shape and widened once per
    distinct label length in each column."""
    shapes = list(map(all_shapes.__getitem__, facet.numbers))
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


def _processes(layout: ShardingLayout) -> list[list[int | str]]:
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
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in consecutive_runs(ordered))

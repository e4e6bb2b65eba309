"""The memory view model: a JSON-ready description of a map that the HTML and the widget draw.

Colours, labels, tooltips and units are decided here once. What leaves share is sent once:
each leaf is ``[path, dtype, group]``, and a group (one sharding and shape) carries the shape,
spec, shard shape, copies and elements per device. Per-device leaf lists are not sent; the front
end derives them from the groups, so the payload grows with devices plus leaves, not their
product. :func:`leaf_rows` (and ``expandLeaves`` in ``js/memory_model.js``) turn it back into
one row per leaf.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxdbg_widgets.memory.grid import DeviceGrid
from jaxdbg_widgets.memory.model import LARGE_SHARE, MemoryLayout
from jaxdbg_widgets.memory.schema import HeatGrid, MemoryGroup, MemoryView, ProgramView
from jaxdbg_widgets.memory.units import human_bytes
from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.colors import text_color

HEAT_MAP = "YlOrRd"
LEGEND_STOPS = 5


def memory_view(memory: MemoryLayout, *, color_map: str = HEAT_MAP) -> MemoryView:
    """Everything a front end needs: header, heatmap grid, devices, legend, leaves, program."""
    with collector_paused():
        return _memory_view(memory, color_map)


def heat_grid(grid: DeviceGrid, index_of: dict[int, int]) -> HeatGrid:
    """A heatmap's grid as JSON, each cell naming its device by position (``index_of`` an id's)."""
    return {
        "rows": grid.rows,
        "cols": grid.cols,
        "row_label": grid.row_label,
        "col_label": grid.col_label,
        "title": grid.title,
        "cells": [[r, c, index_of[i]] for r, c, i in grid.cells],
    }


def _memory_view(memory: MemoryLayout, color_map: str) -> MemoryView:
    index_of = {d.id: i for i, d in enumerate(memory.devices)}
    top = memory.max_bytes
    low = min((d.bytes for d in memory.devices), default=0)
    lookup = _color_lookup(color_map)
    fills = _hex(lookup(np.asarray(_scaled([d.bytes for d in memory.devices], low, top))))
    counts = _leaf_counts(memory, index_of)
    flagged = {id(leaf) for leaf in memory.large_replicated()}
    sets: dict[tuple[int, ...], int] = {}
    groups: list[MemoryGroup] = []
    for group in memory.groups:
        positions = tuple(index_of[i] for i in group.device_ids)
        uniform = len(set(group.elements)) == 1
        groups.append(
            {
                "set": sets.setdefault(positions, len(sets)),
                "elements": group.elements[0] if uniform else list(group.elements),
                "shape": _shape_text(group.shape),
                "spec": group.spec,
                "shard_shape": _shape_text(group.shard_shape),
                "replication": group.replication,
                "total_elements": group.total_elements,
                "max_elements": group.max_elements,
            }
        )
    dtypes: dict[tuple[str, int], int] = {}
    leaves: list[list[str | int]] = [
        [leaf.path, dtypes.setdefault((leaf.dtype, leaf.itemsize), len(dtypes)), leaf.group]
        for leaf in memory.leaves
    ]
    return {
        "source": memory.source,
        "summary": memory.summary(),
        "grid": heat_grid(memory.grid, index_of),
        "devices": [
            {
                "id": d.id,
                "process": d.process_index,
                "platform": d.platform.upper(),
                "bytes": d.bytes,
                "human": human_bytes(d.bytes),
                "color": fill,
                "text": text_color(fill),
                "tooltip": _tooltip(memory, d, count),
            }
            for d, fill, count in zip(memory.devices, fills, counts, strict=True)
        ],
        "legend": {
            "colors": _hex(lookup(np.linspace(0.0, 1.0, LEGEND_STOPS))),
            "ticks": [human_bytes(low), human_bytes((low + top) / 2), human_bytes(top)],
        },
        "processes": [[p, b, human_bytes(b)] for p, b in memory.process_totals().items()],
        "limits": _limits_line(memory),
        "leaves": leaves,
        "dtypes": [[name, itemsize] for name, itemsize in dtypes],
        "flagged": [i for i, leaf in enumerate(memory.leaves) if id(leaf) in flagged],
        "groups": groups,
        "device_sets": [list(positions) for positions in sets],
        "flag_note": (
            f"fully replicated and at least {LARGE_SHARE:.0%} of the fullest device"
            if flagged
            else ""
        ),
        "program": _program(memory),
        "notes": [line for line in (memory.skipped_text(), memory.shared_text()) if line],
    }


def leaf_rows(view: MemoryView) -> list[dict[str, Any]]:
    """One dict per leaf (path, shape, dtype, spec, shard shape, copies, bytes, flag) from a view."""
    flagged = set(view["flagged"])
    rows = []
    for i, (path, dtype, number) in enumerate(view["leaves"]):
        name, itemsize = view["dtypes"][int(dtype)]  # a leaf is [path, dtype, group]
        group = view["groups"][int(number)]
        rows.append(
            {
                "path": path,
                "shape": group["shape"],
                "dtype": name,
                "spec": group["spec"],
                "shard_shape": group["shard_shape"],
                "replication": group["replication"],
                "total": group["total_elements"] * int(itemsize),
                "per_device": group["max_elements"] * int(itemsize),
                "itemsize": itemsize,
                "group": number,
                "flagged": i in flagged,
            }
        )
    return rows


def _color_lookup(name: str) -> Any:
    import matplotlib as mpl

    try:
        return mpl.colormaps[name]
    except KeyError:
        raise ValueError(f"unknown matplotlib colormap {name!r}") from None


def _scaled(counts: list[int], low: int, top: int) -> list[float]:
    """Each device's place on the colour scale, which runs from the emptiest device to the
    fullest, so 16.5 against 17.5 MiB shows as two colours; all equal: the top colour (the
    bottom one when nothing is held)."""
    if top == low:
        return [1.0 if top else 0.0] * len(counts)
    span = top - low
    return [(count - low) / span for count in counts]


def _hex(rgba: Any) -> list[str]:
    channels = np.rint(np.clip(np.asarray(rgba)[:, :3], 0, 1) * 255).astype(int)
    return [f"#{r:02X}{g:02X}{b:02X}" for r, g, b in channels.tolist()]


def _leaf_counts(memory: MemoryLayout, index_of: dict[int, int]) -> list[int]:
    """How many leaves put bytes on each device, from group sizes and memberships."""
    per_group = np.bincount(
        np.fromiter((leaf.group for leaf in memory.leaves), np.int64, len(memory.leaves)),
        minlength=len(memory.groups),
    )
    counts = np.zeros(len(memory.devices), dtype=np.int64)
    for number, group in enumerate(memory.groups):
        held = [index_of[i] for i, n in zip(group.device_ids, group.elements, strict=True) if n]
        np.add.at(counts, np.asarray(held, dtype=np.int64), per_group[number])
    return counts.tolist()


def _tooltip(memory: MemoryLayout, device: Any, leaf_count: int) -> list[str]:
    mean = memory.total_bytes / len(memory.devices) if memory.devices else 0
    lines = [
        f"device {device.id} · {device.platform.upper()} · process {device.process_index}",
        f"{human_bytes(device.bytes)} ({device.bytes:,} bytes) in {leaf_count:,} "
        + ("leaf" if leaf_count == 1 else "leaves"),
    ]
    if mean:
        lines.append(f"{device.bytes / mean:.2f}x the mean device")
    if device.limit is not None:
        used = f", {human_bytes(device.in_use)} in use" if device.in_use is not None else ""
        lines.append(f"limit {human_bytes(device.limit)}{used}")
    else:
        lines.append("limit: not reported")
    if memory.program is not None and device.id in memory.program.device_ids:
        lines.append(f"program peak (XLA): {human_bytes(memory.program.peak)}")
    return lines


def _limits_line(memory: MemoryLayout) -> str:
    """Device limits and bytes in use, or a plain statement that the runtime does not report them."""
    if not memory.devices:
        return "no devices: nothing in this map is held on a device"
    reported = [(d, d.limit) for d in memory.devices if d.limit is not None]
    if not reported:
        platforms = sorted({d.platform.upper() for d in memory.devices})
        return f"device memory limits: not reported by {'/'.join(platforms)} devices"
    tightest, limit = min(reported, key=lambda pair: pair[1] - (pair[0].in_use or 0))
    free = limit - (tightest.in_use or 0)
    return (
        f"device memory limits: {len(reported)} of {len(memory.devices)} devices report; "
        f"least free: device {tightest.id}, {human_bytes(free)} of {human_bytes(limit)}"
    )


def _program(memory: MemoryLayout) -> ProgramView | None:
    program = memory.program
    if program is None:
        return None
    rows: list[tuple[str, int | None, str]] = [
        (label, value, human_bytes(value) if value is not None else "not reported")
        for label, value in program.sizes
    ]
    rows.extend((label, value, human_bytes(value)) for label, value in program.host_sizes)
    index_of = {d.id: i for i, d in enumerate(memory.devices)}
    return {
        "rows": rows,
        "peak": (program.peak, human_bytes(program.peak)),
        "notes": list(program.notes),
        "devices": sorted(index_of[i] for i in program.device_ids if i in index_of),
        "device_rows": _device_rows(program),
    }


def _device_rows(program: Any) -> list[tuple[str, int, str]]:
    """What a device running the program holds beyond its argument and output leaves, as
    ``[label, bytes, text]`` rows: with the leaves they add up to the device's total, the
    aliased bytes (outputs written into donated arguments) taken off once."""
    rows: list[tuple[str, int, str]] = []
    for label, sign, what in (
        ("temporary", 1, "XLA temporaries"),
        ("generated code", 1, "generated code"),
        ("alias", -1, "aliased: outputs reusing donated arguments, counted once"),
    ):
        value = program.size(label)
        if value:
            rows.append((what, sign * value, ("−" if sign < 0 else "") + human_bytes(value)))
    return rows


def _shape_text(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def process_line(view: MemoryView) -> str | None:
    """``per process: process 0: 32 B on 2 devices, fullest 24 B; ...`` when the map spans
    several processes: each one's total and its fullest device, from the devices' figures."""
    if len(view["processes"]) <= 1:
        return None
    counts: dict[int, int] = {}
    fullest: dict[int, int] = {}
    for device in view["devices"]:
        p = device["process"]
        counts[p] = counts.get(p, 0) + 1
        fullest[p] = max(fullest.get(p, 0), device["bytes"])
    return "per process: " + "; ".join(
        f"process {p}: {human} on {_counted(counts.get(int(p), 0), 'device')}, "
        f"fullest {human_bytes(fullest.get(int(p), 0))}"
        for p, _, human in view["processes"]  # each [process, bytes, text]
    )


def _counted(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")

"""Where each device's square goes in the heatmap: on the mesh when every leaf agrees on one,
otherwise a grid of device ids."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ROW_LIMIT = 16


@dataclass(frozen=True)
class DeviceGrid:
    """``cells`` are ``(row, col, device_id)``; labels name the mesh axes running down/across."""

    rows: int
    cols: int
    cells: tuple[tuple[int, int, int], ...]
    row_label: str
    col_label: str
    title: str


def device_grid(device_ids: Sequence[int], mesh: Any, shardings: Sequence[Any]) -> DeviceGrid:
    """The mesh's layout when ``mesh`` (or the one mesh all ``shardings`` share) covers the
    devices; a device-id grid otherwise."""
    chosen = mesh if mesh is not None else _shared_mesh(shardings)
    if chosen is not None:
        ids = np.vectorize(lambda d: int(d.id), otypes=[np.int64])(np.asarray(chosen.devices))
        if set(device_ids) <= {int(i) for i in ids.flat}:
            return _mesh_grid(ids, tuple(str(a) for a in chosen.axis_names))
    return _id_grid(sorted(device_ids))


def _shared_mesh(shardings: Sequence[Any]) -> Any:
    found: dict[Any, Any] = {}
    for sharding in shardings:
        mesh = getattr(sharding, "mesh", None)
        devices = getattr(mesh, "devices", None)
        if devices is None or not hasattr(mesh, "axis_names"):
            continue
        array = np.asarray(devices)
        key = (array.shape, tuple(mesh.axis_names), tuple(int(d.id) for d in array.flat))
        found.setdefault(key, mesh)
        if len(found) > 1:
            return None
    return next(iter(found.values()), None)


def _mesh_grid(ids: np.ndarray, axes: tuple[str, ...]) -> DeviceGrid:
    title = "mesh " + " ".join(f"{a}={n}" for a, n in zip(axes, ids.shape, strict=True))
    if ids.ndim <= 1:
        flat = [int(i) for i in ids.reshape(-1)]
        grid = _wrapped(flat)
        label = axes[0] if axes else ""
        wrapped = grid.rows > 1
        return DeviceGrid(
            grid.rows, grid.cols, grid.cells, "", f"{label} (wrapped)" if wrapped else label, title
        )
    cols = ids.shape[-1]
    rows = math.prod(ids.shape[:-1])
    flat = ids.reshape(rows, cols)
    cells = tuple((r, c, int(flat[r, c])) for r in range(rows) for c in range(cols))
    row_axes = axes[:-1]
    row_label = row_axes[0] if len(row_axes) == 1 else "(" + ", ".join(row_axes) + ")"
    return DeviceGrid(rows, cols, cells, row_label, axes[-1], title)


def _id_grid(device_ids: list[int]) -> DeviceGrid:
    grid = _wrapped(device_ids)
    return DeviceGrid(grid.rows, grid.cols, grid.cells, "", "", "device ids")


def _wrapped(device_ids: list[int]) -> DeviceGrid:
    count = len(device_ids)
    cols = count if count <= ROW_LIMIT else math.ceil(math.sqrt(count))
    cols = max(cols, 1)
    rows = max(math.ceil(count / cols), 1)
    cells = tuple((i // cols, i % cols, device_id) for i, device_id in enumerate(device_ids))
    return DeviceGrid(rows, cols, cells, "", "", "")

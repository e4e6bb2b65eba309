"""One memory map of every process of a job, joined from each process's own part.

Each process maps its arrays as on one process, then keeps in its part (plain data, for
pickling or JSON) only what it alone can tell: the figures of its own devices, and the leaves
no lower process holds. A global array is thus listed once, by the lowest process holding it,
and an array of one process by that process, its path prefixed ``p{N}:``. :func:`gathered_map`
joins the parts into one :class:`MemoryLayout`: every device with its process, per-process
totals, and a placement per group so a leaf's sharding diagram shows every process's shards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from jaxdbg_widgets.memory.grid import DeviceGrid, device_grid
from jaxdbg_widgets.memory.model import (
    SKIPPED_NAMED,
    DeviceMemory,
    MemoryLayout,
    MemoryLeaf,
    ShardGroup,
    leaf_in_group,
)
from jaxdbg_widgets.sharding.stand_in import StandInDevice

_Layout = TypeVar("_Layout", bound=MemoryLayout)


def process_part(memory: MemoryLayout, process: int) -> dict[str, Any]:
    """What process ``process`` adds to the job's map: its devices' rows and the leaves (with
    their groups) whose lowest holding process it is."""
    if memory.program is not None:
        raise ValueError(
            "a memory map of every process takes a pytree or the live arrays, not a program: "
            "map the program on one process"
        )
    process_of = {d.id: d.process_index for d in memory.devices}
    numbers: dict[int, int] = {}
    leaves = []
    for leaf in memory.leaves:
        holders = {process_of[i] for i in memory.groups[leaf.group].device_ids}
        if min(holders) != process:
            continue
        number = numbers.setdefault(leaf.group, len(numbers))
        local = holders == {process}
        leaves.append(
            [leaf.path, list(leaf.shape), leaf.dtype, leaf.itemsize, number, leaf.same_as, local]
        )
    groups = [_plain_group(memory.groups[g]) for g in sorted(numbers, key=numbers.__getitem__)]
    grid = memory.grid
    return {
        "process": process,
        "source": memory.source,
        "devices": [
            [d.id, d.platform, d.process_index, d.bytes, d.limit, d.in_use]
            for d in memory.devices
            if d.process_index == process
        ],
        "groups": groups,
        "leaves": leaves,
        "skipped": [list(pair) for pair in memory.skipped],
        "skipped_paths": [[reason, list(paths)] for reason, paths in memory.skipped_paths],
        "grid": [
            grid.rows,
            grid.cols,
            [list(c) for c in grid.cells],
            grid.row_label,
            grid.col_label,
            grid.title,
        ],
    }


def _plain_group(group: ShardGroup) -> dict[str, Any]:
    """A group without its sharding object: its figures and where each device's shard lies."""
    return {
        "shape": list(group.shape),
        "device_ids": list(group.device_ids),
        "elements": list(group.elements),
        "shard_shape": list(group.shard_shape),
        "replication": group.replication,
        "spec": group.spec,
        **plain_placement(group.sharding, group.shape),
    }


def plain_placement(sharding: Any, shape: tuple[int, ...]) -> dict[str, Any]:
    """What a sharding view needs of ``sharding`` for ``shape``, as plain data: its kind, each
    device (id, platform, process) with its index bounds, and its mesh axes and spec, if any."""
    mesh, spec = getattr(sharding, "mesh", None), getattr(sharding, "spec", None)
    axes = entries = types = None
    if mesh is not None and spec is not None:
        try:
            axes = [[str(name), int(size)] for name, size in dict(mesh.shape).items()]
            entries = [_plain_entry(entry) for entry in getattr(spec, "partitions", spec)]
            types = [str(getattr(t, "name", t)) for t in getattr(mesh, "axis_types", None) or ()]
        except (TypeError, ValueError, AttributeError):
            axes = entries = types = None
    return {
        "kind": type(sharding).__name__,
        "placement": [
            [
                int(device.id),
                str(device.platform),
                int(getattr(device, "process_index", 0)),
                _bounds(index, shape),
            ]
            for device, index in sharding.devices_indices_map(shape).items()
        ],
        "mesh_axes": axes,
        "axis_types": types,
        "spec_entries": entries,
    }


def _plain_entry(entry: Any) -> list[str] | None:
    if entry is None:
        return None
    if isinstance(entry, str):
        return [entry]
    return [str(name) for name in entry]


def _bounds(index: Any, shape: tuple[int, ...]) -> list[list[int]]:
    bounds = []
    for entry, size in zip(tuple(index), shape, strict=True):
        if isinstance(entry, slice):
            start, stop, _ = entry.indices(size)
            bounds.append([start, max(start, stop)])
        else:
            bounds.append([int(entry), int(entry) + 1])
    return bounds


@dataclass(frozen=True)
class _Mesh:
    """A mesh read back from plain data: its axis sizes, as ``Mesh.shape`` gives them, and the
    names of its axis types."""

    shape: dict[str, int]
    axis_types: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class GatheredPlacement:
    """A sharding read back from :func:`plain_placement`: ``devices_indices_map`` over
    stand-in devices, with its mesh and spec; :func:`placement_from` names its class after
    the sharding it was read from, so the views' headers name that sharding."""

    shape: tuple[int, ...]
    placement: tuple[tuple[StandInDevice, tuple[slice, ...]], ...]
    mesh: _Mesh | None = None
    spec: tuple[tuple[str, ...] | None, ...] | None = None

    def devices_indices_map(self, shape: Sequence[int]) -> dict[StandInDevice, tuple[slice, ...]]:
        if tuple(shape) != self.shape:
            raise ValueError(f"this placement is of shape {self.shape}, not {tuple(shape)}")
        return dict(self.placement)


@lru_cache(maxsize=64)
def _named(kind: str) -> type[GatheredPlacement]:
    return type(kind, (GatheredPlacement,), {"__doc__": f"A {kind} read back from plain data."})


def placement_from(plain: dict[str, Any], shape: Sequence[int]) -> GatheredPlacement:
    """The sharding :func:`plain_placement` wrote, over stand-in devices."""
    placement = tuple(
        (StandInDevice(int(i), platform, int(process)), tuple(slice(a, b) for a, b in bounds))
        for i, platform, process, bounds in plain["placement"]
    )
    axes, entries = plain.get("mesh_axes"), plain.get("spec_entries")
    types = tuple(plain.get("axis_types") or ())
    mesh = None if axes is None else _Mesh({str(n): int(size) for n, size in axes}, types)
    spec = None if entries is None else tuple(None if e is None else tuple(e) for e in entries)
    return _named(str(plain["kind"]))(tuple(shape), placement, mesh, spec)


def gathered_map(
    parts: Sequence[dict[str, Any]],
    kind: type[_Layout] = MemoryLayout,  # type: ignore[assignment]
) -> _Layout:
    """One map of the job from every process's :func:`process_part`, devices by id."""
    parts = sorted(parts, key=lambda part: part["process"])
    processes = [part["process"] for part in parts]
    if not parts:
        raise ValueError("a memory map of every process needs at least one process's part")
    if len(set(processes)) != len(processes):
        raise ValueError(f"each process must send one part, got processes {processes}")
    several = len(parts) > 1
    devices: dict[int, DeviceMemory] = {}
    groups: list[ShardGroup] = []
    leaves: list[MemoryLeaf] = []
    skipped: Counter[str] = Counter()
    skipped_paths: dict[str, list[str]] = {}
    for part in parts:
        prefix = f"p{part['process']}:" if several else ""
        offset = len(groups)
        groups.extend(map(_group, part["groups"]))
        for path, shape, dtype, itemsize, number, same_as, local in part["leaves"]:
            lead = prefix if local else ""
            same = None if same_as is None else lead + same_as
            group = offset + number
            leaves.append(
                leaf_in_group(
                    lead + path, tuple(shape), dtype, itemsize, group, groups[group], same
                )
            )
        for row in part["devices"]:
            devices.setdefault(int(row[0]), DeviceMemory(*row))
        for reason, count in part["skipped"]:
            skipped[reason] += count
        for reason, paths in part["skipped_paths"]:
            named_paths = skipped_paths.setdefault(reason, [])
            room = SKIPPED_NAMED - len(named_paths)
            named_paths.extend(prefix + path for path in paths[: max(room, 0)])
    _check_every_device_reported(groups, devices)
    rows = tuple(devices[i] for i in sorted(devices))
    source = parts[0]["source"] + (f" of {len(parts)} processes" if several else "")
    return kind(
        source=source,
        devices=rows,
        leaves=tuple(leaves),
        groups=tuple(groups),
        grid=_grid(parts[0]["grid"], [d.id for d in rows]),
        skipped=tuple(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
        skipped_paths=tuple((reason, tuple(paths)) for reason, paths in skipped_paths.items()),
    )


def _check_every_device_reported(groups: list[ShardGroup], devices: dict[int, Any]) -> None:
    """Refuse parts whose arrays lie on devices that no part reported (a process left out)."""
    missing = {
        device.process_index
        for group in groups
        for device, _ in group.sharding.placement
        if device.id not in devices
    }
    if missing:
        raise ValueError(
            f"the arrays lie on devices of processes {sorted(missing)}, which sent no part: "
            "gather the parts of every process of the job"
        )


def _group(plain: dict[str, Any]) -> ShardGroup:
    shape = tuple(plain["shape"])
    elements = tuple(plain["elements"])
    return ShardGroup(
        shape=shape,
        device_ids=tuple(plain["device_ids"]),
        elements=elements,
        total_elements=sum(elements),
        max_elements=max(elements, default=0),
        shard_shape=tuple(plain["shard_shape"]),
        replication=plain["replication"],
        spec=plain["spec"],
        sharding=placement_from(plain, shape),
    )


def _grid(plain: Sequence[Any], device_ids: list[int]) -> DeviceGrid:
    """The lowest process's grid (its mesh) when it places every device; device ids otherwise."""
    rows, cols, cells, row_label, col_label, title = plain
    placed = tuple((int(r), int(c), int(i)) for r, c, i in cells)
    if {i for _, _, i in placed} == set(device_ids):
        return DeviceGrid(rows, cols, placed, row_label, col_label, title)
    return device_grid(device_ids, None, ())

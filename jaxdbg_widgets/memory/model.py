"""The pure memory model: bytes per device and per leaf, counting every replica where it lives.

Leaves that share a sharding and a shape share one :class:`ShardGroup`, computed once from
``sharding.devices_indices_map(shape)``; a leaf then costs a dictionary look-up. Shards held by
other processes are counted from the sharding, never from data this process cannot see.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jaxdbg_widgets.memory import sources
from jaxdbg_widgets.memory.grid import DeviceGrid, device_grid
from jaxdbg_widgets.memory.program import ProgramMemory
from jaxdbg_widgets.sharding.bulk import collector_paused

LARGE_SHARE = 0.05
"""A fully replicated leaf is flagged when one copy is at least this share of the fullest device."""


@dataclass(frozen=True)
class ShardGroup:
    """Where an array of one shape under one sharding lives: elements held per device.

    ``device_ids[i]`` holds ``elements[i]`` elements; ``replication`` is the most copies of any
    one shard; ``shard_shape`` is the largest shard's shape.
    """

    shape: tuple[int, ...]
    device_ids: tuple[int, ...]
    elements: tuple[int, ...]
    total_elements: int
    max_elements: int
    shard_shape: tuple[int, ...]
    replication: int
    spec: str
    sharding: Any = field(repr=False, compare=False)

    @property
    def fully_replicated(self) -> bool:
        return len(self.device_ids) > 1 and self.replication == len(self.device_ids)


@dataclass(frozen=True)
class MemoryLeaf:
    """One array of the input: its path, type, placement and bytes."""

    path: str
    shape: tuple[int, ...]
    dtype: str
    itemsize: int
    group: int
    spec: str
    shard_shape: tuple[int, ...]
    replication: int
    device_count: int
    fully_replicated: bool
    nbytes: int
    total_bytes: int
    device_bytes: int


@dataclass(frozen=True)
class DeviceMemory:
    """One device: the bytes the map puts on it and what the runtime reports, if anything."""

    id: int
    platform: str
    process_index: int
    bytes: int
    limit: int | None
    in_use: int | None


@dataclass(frozen=True)
class MemoryMap:
    """Bytes per device and per leaf for a pytree, the live arrays, or a compiled program."""

    source: str
    devices: tuple[DeviceMemory, ...]
    leaves: tuple[MemoryLeaf, ...]
    groups: tuple[ShardGroup, ...]
    grid: DeviceGrid
    skipped: tuple[tuple[str, int], ...] = ()
    program: ProgramMemory | None = None

    @property
    def total_bytes(self) -> int:
        return sum(d.bytes for d in self.devices)

    @property
    def max_bytes(self) -> int:
        return max((d.bytes for d in self.devices), default=0)

    @property
    def imbalance(self) -> float | None:
        """The fullest device's bytes over the mean device's; None when nothing is held."""
        if not self.devices or self.total_bytes == 0:
            return None
        return self.max_bytes / (self.total_bytes / len(self.devices))

    @property
    def memory_reported(self) -> bool:
        """Whether the runtime reported a memory limit for any device (never on CPU)."""
        return any(d.limit is not None for d in self.devices)

    def process_totals(self) -> dict[int, int]:
        """Bytes per process index, summed over its devices."""
        totals: dict[int, int] = {}
        for device in self.devices:
            totals[device.process_index] = totals.get(device.process_index, 0) + device.bytes
        return dict(sorted(totals.items()))

    def device(self, device_id: int) -> DeviceMemory:
        for device in self.devices:
            if device.id == device_id:
                return device
        raise KeyError(f"no device with id {device_id} in this memory map")

    def leaves_on(self, device_id: int) -> list[tuple[MemoryLeaf, int]]:
        """The leaves with bytes on ``device_id``, largest first (ties by path)."""
        per_group: dict[int, int] = {}
        for number, group in enumerate(self.groups):
            if device_id in group.device_ids:
                per_group[number] = group.elements[group.device_ids.index(device_id)]
        held = [
            (leaf, per_group[leaf.group] * leaf.itemsize)
            for leaf in self.leaves
            if per_group.get(leaf.group)
        ]
        return sorted(held, key=lambda pair: (-pair[1], pair[0].path))

    def large_replicated(self, share: float = LARGE_SHARE) -> list[MemoryLeaf]:
        """Fully replicated leaves whose one copy is at least ``share`` of the fullest device."""
        floor = share * self.max_bytes
        return [
            leaf for leaf in self.leaves if leaf.fully_replicated and leaf.device_bytes >= floor > 0
        ]

    def skipped_text(self) -> str | None:
        """One line on what was not counted, e.g. ``skipped 3 leaves: not a device array (2), ...``."""
        if not self.skipped:
            return None
        total = sum(n for _, n in self.skipped)
        reasons = ", ".join(f"{reason} ({n})" for reason, n in self.skipped)
        return f"skipped {total} {'leaf' if total == 1 else 'leaves'}: {reasons}"

    def summary(self) -> list[str]:
        """Short phrases for a header: totals, devices, processes, imbalance."""
        from jaxdbg_widgets.memory.units import human_bytes

        parts = [
            f"{len(self.leaves):,} {'leaf' if len(self.leaves) == 1 else 'leaves'}",
            f"{human_bytes(self.total_bytes)} on {len(self.devices):,} "
            + ("device" if len(self.devices) == 1 else "devices"),
            f"max {human_bytes(self.max_bytes)}",
        ]
        if self.imbalance is not None:
            parts.append(f"imbalance {self.imbalance:.2f}x")
        processes = self.process_totals()
        if len(processes) > 1:
            parts.append(f"{len(processes)} processes")
        return parts

    def to_text(self, *, use_color: bool = False) -> str:
        from jaxdbg_widgets.memory.text import render_text

        return render_text(self, use_color=use_color)

    def to_html(self) -> str:
        from jaxdbg_widgets.memory.html import render_html

        return render_html(self)

    def widget(self) -> Any:
        """The interactive widget for this map (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.memory.widget import MemoryWidget

        return MemoryWidget(self)

    def __rich__(self) -> Any:
        from jaxdbg_widgets.memory.text import text_renderable

        return text_renderable(self)

    def __repr__(self) -> str:
        return f"MemoryMap({self.source}: {', '.join(self.summary())})"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget where a kernel runs (static HTML as its fallback); HTML and text elsewhere."""
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            bundle = self.widget()._repr_mimebundle_(**kwargs)
            if bundle is not None:
                return bundle[0]
        return {"text/plain": self.to_text(), "text/html": self.to_html()}


def build_memory_map(
    entries: Iterable[tuple[str, Any]],
    *,
    source: str,
    mesh: Any = None,
    program: ProgramMemory | None = None,
    skipped: Iterable[tuple[str, int]] = (),
    devices: Iterable[Any] = (),
) -> MemoryMap:
    """Count every ``(path, leaf)``; leaves that hold no countable memory are counted as skipped.

    ``devices`` are shown even when they hold nothing (e.g. every device of the process).
    """
    with collector_paused():
        return _build(entries, source, mesh, program, Counter(dict(skipped)), devices)


def _build(
    entries: Iterable[tuple[str, Any]],
    source: str,
    mesh: Any,
    program: ProgramMemory | None,
    skipped: Counter[str],
    shown: Iterable[Any],
) -> MemoryMap:
    group_of: dict[Any, int] = {}
    groups: list[ShardGroup] = []
    group_itemsizes: list[int] = []
    devices: dict[int, Any] = {}
    leaves: list[MemoryLeaf] = []
    dtypes: dict[Any, tuple[str, int]] = {}
    for path, leaf in entries:
        reason = sources.skip_reason(leaf)
        if reason is None:
            try:
                shape, sharding, dtype_name, itemsize = _leaf_info(leaf, dtypes)
                key = _group_key(sharding, shape)
                number = group_of.get(key)
                if number is None:
                    groups.append(_group(sharding, shape, devices))
                    group_itemsizes.append(0)
                    number = group_of[key] = len(groups) - 1
            except (TypeError, ValueError, AttributeError):
                reason = sources.BAD_LEAF
        if reason is not None:
            skipped[reason] += 1
            continue
        group = groups[number]
        group_itemsizes[number] += itemsize
        size = math.prod(shape) * itemsize
        leaves.append(
            MemoryLeaf(
                path,
                shape,
                dtype_name,
                itemsize,
                number,
                group.spec,
                group.shard_shape,
                group.replication,
                len(group.device_ids),
                group.fully_replicated,
                size,
                group.total_elements * itemsize,
                group.max_elements * itemsize,
            )
        )
    if program is not None:
        for device in program.devices:
            devices.setdefault(int(device.id), device)
    if mesh is not None:
        shown = [*shown, *np.asarray(mesh.devices).flat]
    for device in shown:
        devices.setdefault(int(device.id), device)
    held = _bytes_per_device(groups, group_itemsizes, devices)
    running = program.device_ids if program is not None else frozenset()
    extra = program.per_device_extra if program is not None else 0
    device_rows = tuple(
        _device_memory(devices[i], held.get(i, 0) + (extra if i in running else 0))
        for i in sorted(devices)
    )
    return MemoryMap(
        source=source,
        devices=device_rows,
        leaves=tuple(leaves),
        groups=tuple(groups),
        grid=device_grid([d.id for d in device_rows], mesh, [g.sharding for g in groups]),
        skipped=tuple(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
        program=program,
    )


def _leaf_info(
    leaf: Any, dtypes: dict[Any, tuple[str, int]]
) -> tuple[tuple[int, ...], Any, str, int]:
    """Shape, sharding, dtype name and item size; dtype facts are looked up once per dtype."""
    shape = leaf.shape
    if type(shape) is not tuple:
        shape = tuple(int(d) for d in shape)
    dtype = leaf.dtype
    known = dtypes.get(dtype)
    if known is None:
        itemsize = getattr(dtype, "itemsize", None)
        if not isinstance(itemsize, int):
            dtype = np.dtype(dtype)
            itemsize = dtype.itemsize
        known = dtypes[leaf.dtype] = (str(dtype), itemsize)
    return shape, leaf.sharding, known[0], known[1]


def _group_key(sharding: Any, shape: tuple[int, ...]) -> Any:
    try:
        hash(sharding)
    except TypeError:
        return (id(sharding), shape)
    return (sharding, shape)


def _group(sharding: Any, shape: tuple[int, ...], devices: dict[int, Any]) -> ShardGroup:
    """Elements per device and copies per shard, from one ``devices_indices_map`` call.

    The devices join ``devices`` only once the whole map has been read.
    """
    held: dict[int, Any] = {}
    ids: list[int] = []
    elements: list[int] = []
    copies: dict[tuple[tuple[int, int], ...], int] = {}
    size_of: dict[tuple[tuple[int, int], ...], int] = {}
    for device, index in sharding.devices_indices_map(shape).items():
        bounds = _bounds(index, shape)
        count = size_of.get(bounds)
        if count is None:
            count = size_of[bounds] = math.prod(stop - start for start, stop in bounds)
        copies[bounds] = copies.get(bounds, 0) + 1
        device_id = int(device.id)
        held.setdefault(device_id, device)
        ids.append(device_id)
        elements.append(count)
    largest = max(size_of, key=size_of.__getitem__) if size_of else ()
    for device_id, device in held.items():
        devices.setdefault(device_id, device)
    return ShardGroup(
        shape=shape,
        device_ids=tuple(ids),
        elements=tuple(elements),
        total_elements=sum(elements),
        max_elements=max(elements, default=0),
        shard_shape=tuple(stop - start for start, stop in largest),
        replication=max(copies.values(), default=1),
        spec=_spec_text(sharding),
        sharding=sharding,
    )


def _bounds(index: Any, shape: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    bounds = []
    for entry, size in zip(tuple(index), shape, strict=True):
        if isinstance(entry, slice):
            start, stop, _ = entry.indices(size)
            bounds.append((start, max(start, stop)))
        else:
            bounds.append((int(entry), int(entry) + 1))
    return tuple(bounds)


def _spec_text(sharding: Any) -> str:
    spec = getattr(sharding, "spec", None)
    if spec is None:
        return type(sharding).__name__
    text = repr(spec)
    return text.replace("PartitionSpec(", "P(", 1)


def _bytes_per_device(
    groups: list[ShardGroup], itemsizes: list[int], devices: dict[int, Any]
) -> dict[int, int]:
    """Sum every group's elements times its leaves' item sizes into each device, vectorised."""
    if not groups:
        return {}
    order = {device_id: i for i, device_id in enumerate(sorted(devices))}
    totals = np.zeros(len(order), dtype=np.int64)
    for group, itemsize in zip(groups, itemsizes, strict=True):
        if itemsize:
            at = np.fromiter((order[i] for i in group.device_ids), np.int64, len(group.device_ids))
            np.add.at(totals, at, np.asarray(group.elements, dtype=np.int64) * itemsize)
    return {device_id: int(totals[i]) for device_id, i in order.items()}


def _device_memory(device: Any, held: int) -> DeviceMemory:
    limit, in_use = _memory_stats(device)
    return DeviceMemory(
        int(device.id), str(device.platform), int(device.process_index), held, limit, in_use
    )


def _memory_stats(device: Any) -> tuple[int | None, int | None]:
    """``bytes_limit`` and ``bytes_in_use`` where the runtime reports them (GPU/TPU), else None."""
    stats_of = getattr(device, "memory_stats", None)
    if stats_of is None:
        return None, None
    try:
        stats = stats_of()
    except Exception:
        return None, None
    if not stats:
        return None, None
    limit, in_use = stats.get("bytes_limit"), stats.get("bytes_in_use")
    return (
        int(limit) if limit is not None else None,
        int(in_use) if in_use is not None else None,
    )

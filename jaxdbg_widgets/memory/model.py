"""The pure memory model: bytes per device and per leaf, counting every replica where it lives.

:class:`MemoryLayout` imports no view; :class:`jaxdbg_widgets.memory.display.MemoryMap` adds the
hooks that show it as text, HTML or a widget.

Leaves that share a sharding and a shape share one :class:`ShardGroup`, computed once from
``sharding.devices_indices_map(shape)``; a leaf then costs a dictionary look-up. Shards held by
other processes are counted from the sharding, never from data this process cannot see.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from jaxdbg_widgets.memory import sources
from jaxdbg_widgets.memory.grid import DeviceGrid, device_grid
from jaxdbg_widgets.memory.program import ProgramMemory
from jaxdbg_widgets.memory.units import human_bytes
from jaxdbg_widgets.sharding.bulk import collector_paused

LARGE_SHARE = 0.05
"""A fully replicated leaf is flagged when one copy is at least this share of the fullest device."""
SHARED_NAMED = 5
SKIPPED_NAMED = 3
"""How many skipped paths the skip note names for each reason; the rest are counted."""
"""How many leaves that repeat an earlier leaf's array the note names; the rest are counted."""
_INT64_LIMIT = 1 << 63


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
    same_as: str | None = None
    """The path of an earlier leaf that is this very array (tied weights); its bytes are then
    counted once, under that path, in the device totals."""


def leaf_in_group(
    path: str,
    shape: tuple[int, ...],
    dtype: str,
    itemsize: int,
    number: int,
    group: ShardGroup,
    same_as: str | None,
) -> MemoryLeaf:
    """One array placed as shard group ``number`` places it, its bytes counted from the group."""
    return MemoryLeaf(
        path,
        shape,
        dtype,
        itemsize,
        number,
        group.spec,
        group.shard_shape,
        group.replication,
        len(group.device_ids),
        group.fully_replicated,
        math.prod(shape) * itemsize,
        group.total_elements * itemsize,
        group.max_elements * itemsize,
        same_as,
    )


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
class MemoryLayout:
    """Bytes per device and per leaf for a pytree, the live arrays, or a compiled program."""

    source: str
    devices: tuple[DeviceMemory, ...]
    leaves: tuple[MemoryLeaf, ...]
    groups: tuple[ShardGroup, ...]
    grid: DeviceGrid
    skipped: tuple[tuple[str, int], ...] = ()
    program: ProgramMemory | None = None
    skipped_paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The first paths skipped for each reason (at most :data:`SKIPPED_NAMED` each)."""

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
        """Fully replicated leaves whose one copy is at least ``share`` (from 0 to 1) of the
        fullest device."""
        if not isinstance(share, numbers.Real) or isinstance(share, bool):
            raise TypeError(f"share must be a number from 0 to 1, got {type(share).__name__}")
        if not 0 <= share <= 1:  # NaN fails this too
            raise ValueError(f"share must be a number from 0 to 1, got {share!r}")
        floor = share * self.max_bytes
        return [
            leaf
            for leaf in self.leaves
            if leaf.fully_replicated and leaf.device_bytes >= floor and leaf.device_bytes > 0
        ]

    def skipped_text(self) -> str | None:
        """One line on what was not counted and where, e.g.
        ``skipped 3 leaves: not a device array (2: ['n'], ['host']), ...``."""
        if not self.skipped:
            return None
        total = sum(n for _, n in self.skipped)
        named = dict(self.skipped_paths)

        def reason_text(reason: str, count: int) -> str:
            paths = named.get(reason, ())
            if not paths:
                return f"{reason} ({count})"
            more = ", …" if count > len(paths) else ""
            return f"{reason} ({count}: {', '.join(paths)}{more})"

        reasons = ", ".join(reason_text(reason, n) for reason, n in self.skipped)
        return f"skipped {total} {'leaf' if total == 1 else 'leaves'}: {reasons}"

    def shared_text(self) -> str | None:
        """One line on leaves that are the same array as an earlier leaf, or None when none are:
        they are listed, but their bytes count once in the device totals."""
        repeats = [leaf for leaf in self.leaves if leaf.same_as is not None]
        if not repeats:
            return None
        named = ", ".join(f"{leaf.path} is {leaf.same_as}" for leaf in repeats[:SHARED_NAMED])
        more = f" and {len(repeats) - SHARED_NAMED:,} more" if len(repeats) > SHARED_NAMED else ""
        return (
            f"{len(repeats):,} {'leaf shares' if len(repeats) == 1 else 'leaves share'} a buffer "
            f"with an earlier leaf, counted once in device totals: {named}{more}"
        )

    def summary(self) -> list[str]:
        """Short phrases for a header: totals, devices, processes, imbalance."""
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

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source}: {', '.join(self.summary())})"


_Layout = TypeVar("_Layout", bound=MemoryLayout)


def build_memory_map(
    entries: Iterable[tuple[str, Any]],
    *,
    source: str,
    mesh: Any = None,
    program: ProgramMemory | None = None,
    skipped: Iterable[tuple[str, int]] = (),
    devices: Iterable[Any] = (),
    kind: type[_Layout] = MemoryLayout,  # type: ignore[assignment]
) -> _Layout:
    """Count every ``(path, leaf)``; leaves that hold no countable memory are counted as skipped.

    ``devices`` are shown even when they hold nothing (e.g. every device of the process).
    ``kind`` is the class made: :class:`MemoryLayout` or a subclass that adds display hooks.
    """
    with collector_paused():
        return _build(entries, source, mesh, program, Counter(dict(skipped)), devices, kind)


def _build(
    entries: Iterable[tuple[str, Any]],
    source: str,
    mesh: Any,
    program: ProgramMemory | None,
    skipped: Counter[str],
    shown: Iterable[Any],
    kind: type[_Layout],
) -> _Layout:
    group_of: dict[Any, int] = {}
    groups: list[ShardGroup] = []
    group_itemsizes: list[int] = []
    devices: dict[int, Any] = {}
    leaves: list[MemoryLeaf] = []
    dtypes: dict[Any, tuple[str, int]] = {}
    first_path: dict[int, tuple[str, Any]] = {}  # id of a buffer-holding leaf -> (path, leaf)
    skipped_paths: dict[str, list[str]] = {}
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
            named = skipped_paths.setdefault(reason, [])
            if len(named) < SKIPPED_NAMED:
                named.append(path)
            continue
        group = groups[number]
        same_as = None
        if sources.holds_buffer(leaf):  # the leaf is kept in the dict, so its id stays unique
            earlier, _ = first_path.setdefault(id(leaf), (path, leaf))
            same_as = None if earlier == path else earlier
        if same_as is None:
            group_itemsizes[number] += itemsize
        leaves.append(leaf_in_group(path, shape, dtype_name, itemsize, number, group, same_as))
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
    return kind(
        source=source,
        devices=device_rows,
        leaves=tuple(leaves),
        groups=tuple(groups),
        grid=device_grid([d.id for d in device_rows], mesh, [g.sharding for g in groups]),
        skipped=tuple(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
        program=program,
        skipped_paths=tuple((reason, tuple(paths)) for reason, paths in skipped_paths.items()),
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
    """``P('x', None)`` for a mesh sharding; the kind otherwise, with its device when it has one
    (``SingleDeviceSharding(CPU 0)``)."""
    spec = getattr(sharding, "spec", None)
    if spec is None:
        devices = getattr(sharding, "device_set", None) or ()
        if len(devices) == 1:
            (device,) = devices
            return f"{type(sharding).__name__}({str(device.platform).upper()} {device.id})"
        return type(sharding).__name__
    text = repr(spec)
    return text.replace("PartitionSpec(", "P(", 1)


def _bytes_per_device(
    groups: list[ShardGroup], itemsizes: list[int], devices: dict[int, Any]
) -> dict[int, int]:
    """Sum every group's elements times its leaves' item sizes into each device, vectorised
    while the sums fit in 64 bits (planned arrays can be far larger: exact integers then)."""
    if not groups:
        return {}
    bound = sum(g.max_elements * s for g, s in zip(groups, itemsizes, strict=True))
    if bound >= _INT64_LIMIT:
        exact = dict.fromkeys(sorted(devices), 0)
        for group, itemsize in zip(groups, itemsizes, strict=True):
            for device_id, count in zip(group.device_ids, group.elements, strict=True):
                exact[device_id] += count * itemsize
        return exact
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
        int(device.id),
        str(device.platform),
        int(getattr(device, "process_index", 0)),
        held,
        limit,
        in_use,
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

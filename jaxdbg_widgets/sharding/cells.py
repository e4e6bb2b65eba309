"""Which devices hold which index slice of an array: the cells of a sharding layout, built
from ``devices_indices_map`` in bulk, and the short texts that list their holders.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, chain, compress, repeat
from operator import add, attrgetter, is_not, itemgetter, mul
from typing import Any, NamedTuple


class Device(NamedTuple):
    """The parts of a device the views show."""

    id: int
    platform: str
    process_index: int


class Cell(NamedTuple):
    """One distinct shard: its index range per dimension and every device holding a copy.

    ``label`` is ``CPU 0,1`` (platform and holders), ``index_text`` the slices, e.g. ``[0:16, 8:16]``.
    """

    bounds: tuple[tuple[int, int], ...]
    position: tuple[int, ...]
    devices: tuple[Device, ...]
    device_ids: tuple[int, ...]
    platform: str
    process_indices: tuple[int, ...]
    shard_shape: tuple[int, ...]
    label: str
    index_text: str

    @property
    def replicas(self) -> int:
        return len(self.devices)


_Span = tuple[int, int, int]


class _Dim(NamedTuple):
    """The distinct spans of one dimension, sorted by ``(start, stop)``: each one's bounds,
    ``start:stop`` text, extent and grid position (spans sharing a start share a position)."""

    bounds: list[tuple[int, int]]
    texts: list[str]
    extents: list[int]
    positions: list[int]
    grid: int


def _made_cells(
    dims: Sequence[_Dim], numbers: Sequence[list[int]], holders: Sequence[Sequence[Device]]
) -> list[Cell]:
    """One cell per shard; ``numbers[d]`` gives each shard's span of dim ``d`` as a place in
    ``dims[d]``. Fields are gathered a dimension at a time, so the per-cell work is only the
    holders and the label."""
    count = len(holders)

    def gathered(table: Callable[[_Dim], list[Any]]) -> list[tuple[Any, ...]]:
        columns = [
            _looked_up(table(dim), column) for dim, column in zip(dims, numbers, strict=True)
        ]
        return list(zip(*columns, strict=True)) or [()] * count

    bounds, positions = gathered(_BOUNDS), gathered(_POSITIONS)
    if all(len(set(dim.extents)) == 1 for dim in dims):  # one shard shape, shared by all
        extents = [tuple(dim.extents[0] for dim in dims)] * count
    else:
        extents = gathered(_EXTENTS)
    texts = [map(dim.texts.__getitem__, column) for dim, column in zip(dims, numbers, strict=True)]
    pieces = [repeat("[")]
    for column in texts:
        pieces += [column, repeat(", ")]
    pieces[-1] = repeat("]")
    index_texts = list(map("".join, zip(*pieces, strict=False))) if texts else ["[]"] * count
    if set(map(len, holders)) == {1}:  # one device per shard: every field a column at a time
        held = list(map(tuple, holders))
        firsts = list(map(itemgetter(0), held))
        raw_ids = list(map(itemgetter(0), firsts))
        ids = list(zip(raw_ids))
        raw_processes = list(map(itemgetter(2), firsts))
        shared = {p: (p,) for p in set(raw_processes)}
        processes = list(map(shared.__getitem__, raw_processes))
        names = list(id_texts(raw_ids))
    else:
        held = [tuple(group) if len(group) == 1 else tuple(sorted(group)) for group in holders]
        firsts = list(map(itemgetter(0), held))
        ids = [tuple(map(itemgetter(0), devices)) for devices in held]
        processes = [tuple(sorted(set(map(itemgetter(2), devices)))) for devices in held]
        names = joined_id_texts(ids, ",")
        if max(map(len, ids), default=0) > HOLDERS_LISTED:
            names = [
                holders_text(group, ",") if len(group) > HOLDERS_LISTED else name
                for group, name in zip(ids, names, strict=True)
            ]
    raw_platforms = list(map(itemgetter(1), firsts))
    upper = {name: name.upper() for name in set(raw_platforms)}
    if len(upper) == 1:  # one platform: its name and a space, then the holders
        (platform,) = upper.values()
        platforms = [platform] * count
        labels = list(map((platform + " ").__add__, names))
    else:
        platforms = list(map(upper.__getitem__, raw_platforms))
        labels = list(map("{} {}".format, platforms, names))
    make = tuple.__new__  # a NamedTuple from a ready tuple, without its Python-level __new__
    rows = zip(
        bounds,
        positions,
        held,
        ids,
        platforms,
        processes,
        extents,
        labels,
        index_texts,
        strict=True,
    )
    return list(map(make, repeat(Cell), rows))


def _looked_up(table: list[Any], column: list[int]) -> Iterable[Any]:
    """``table[k]`` for each ``k`` in ``column``, without the lookups where the table holds
    one value or numbers its own places."""
    if len(set(table)) == 1:
        return repeat(table[0], len(column))
    if table == list(range(len(table))):
        return column
    return map(table.__getitem__, column)


_BOUNDS = attrgetter("bounds")


_EXTENTS = attrgetter("extents")


_POSITIONS = attrgetter("positions")


_ID_TEXT: list[str] = []


_ID_TEXT_LIMIT = 1 << 16


HOLDERS_LISTED = 8
"""Up to this many holders a shard's label lists every device id, as JAX's does."""


RUNS_SHOWN = 3


def consecutive_runs(ordered: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted ids as ``(first, last)`` runs of consecutive ids: ``0,1,2,5`` is ``(0, 2), (5, 5)``."""
    runs: list[list[int]] = []
    for i in ordered:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return [(a, b) for a, b in runs]


def holders_text(ids: Sequence[int], separator: str) -> str:
    """The holders of one shard: ``0,4`` for a few (as JAX writes them); past
    :data:`HOLDERS_LISTED`, runs of consecutive ids and the count, ``0–255 ×256`` or
    ``0,16,32,… ×256``, so heavy replication does not make a label as wide as its devices."""
    ordered = sorted(ids)
    if len(ordered) <= HOLDERS_LISTED:
        return separator.join(map(str, ordered))
    parts = [f"{a}–{b}" if b > a else f"{a}" for a, b in consecutive_runs(ordered)]
    if len(parts) > RUNS_SHOWN + 1:
        parts = [*parts[:RUNS_SHOWN], "…"]
    return f"{separator.join(parts)} ×{len(ordered)}"


def joined_id_texts(groups: Sequence[Sequence[int]], separator: str) -> list[str]:
    """Each group of device ids written out and joined by ``separator``; the ids of all groups
    are written in one pass."""
    texts = list(id_texts(list(chain.from_iterable(groups))))
    ends = list(accumulate(map(len, groups)))
    spans = map(slice, [0, *ends[:-1]], ends)
    return list(map(separator.join, map(texts.__getitem__, spans)))


def id_texts(ids: Sequence[int]) -> Iterable[str]:
    """``str`` of each device id; small non-negative ids are read from a table kept across
    calls, as a process's device ids are few and drawn again and again."""
    top = max(ids, default=-1)
    if top < 0 or top >= _ID_TEXT_LIMIT or min(ids) < 0:
        return map(str, ids)
    if top >= len(_ID_TEXT):
        _ID_TEXT.extend(map(str, range(len(_ID_TEXT), top + 1)))
    return map(_ID_TEXT.__getitem__, ids)


def layout_cells(
    indices: dict[Any, Any], shape: tuple[int, ...]
) -> tuple[list[Cell], list[int], list[list[int]]]:
    """The cells of ``indices`` in position order, the grid size of each dimension, and each
    dimension's grid position of every cell.

    Each dimension's entries are read once per distinct index object and numbered by span, so a
    shard is an integer key (its span numbers in mixed radix) and the per-device work is a few
    passes of list lookups.
    """
    indexes, holders = _by_index(indices)
    rank = len(shape)
    if set(map(len, indexes)) - {rank}:
        bad = next(index for index in indexes if len(index) != rank)
        raise ValueError(f"sharding index {bad!r} does not match an array of rank {rank}")
    read = [_dim_spans(list(map(itemgetter(d), indexes)), size) for d, size in enumerate(shape)]
    dims = [dim for dim, _ in read]
    numbers = [column for _, column in read]
    grids = [dim.grid for dim in dims]
    places = [
        column if dim.grid == len(dim.bounds) else list(map(dim.positions.__getitem__, column))
        for dim, column in zip(dims, numbers, strict=True)
    ]
    order_keys = mixed_radix(places, grids, len(indexes))
    if len(set(order_keys)) != len(order_keys):  # shards sharing a place may be equal shards
        keys = mixed_radix(numbers, [len(dim.bounds) for dim in dims], len(indexes))
        if len(set(keys)) != len(keys):  # equal shards under different index objects
            rows, holders = _merged(keys, holders)
            numbers = [list(map(column.__getitem__, rows)) for column in numbers]
            order_keys = list(map(order_keys.__getitem__, rows))
    if order_keys != sorted(order_keys):
        order = sorted(range(len(order_keys)), key=order_keys.__getitem__)
        numbers = [list(map(column.__getitem__, order)) for column in numbers]
        holders = list(map(holders.__getitem__, order))
    places = [
        column if dim.grid == len(dim.bounds) else list(map(dim.positions.__getitem__, column))
        for dim, column in zip(dims, numbers, strict=True)
    ]
    return _made_cells(dims, numbers, holders), grids, places


def _by_index(indices: dict[Any, Any]) -> tuple[list[Any], list[Sequence[Device]]]:
    """Each distinct index object (replicas often share one) and the devices holding it, so
    each index is read once."""
    devices = _devices(list(indices))
    values = list(indices.values())
    if len(values) > 1 and values[0] is values[1]:  # replicas side by side, as JAX lists them
        runs = _runs_of_objects(values, devices)
        if runs is not None:
            return runs
    object_ids = list(map(id, values))
    distinct = len(set(object_ids))
    if distinct == len(values):  # no shared index objects: one device each
        return values, list(zip(devices))
    by_object = _by_index_object(values, object_ids, devices, distinct)
    return list(map(itemgetter(0), by_object)), list(map(itemgetter(1), by_object))


def _dim_spans(entries: list[Any], size: int) -> tuple[_Dim, list[int]]:
    """The distinct spans of one dimension's index entries, and each entry's place among them;
    each distinct entry object is read once."""
    ids = list(map(id, entries))
    objects = dict(zip(ids, entries, strict=True))
    distinct = list(objects.values())
    try:
        spans = list(map(slice.indices, distinct, repeat(size)))
    except TypeError:
        spans = list(map(_span, distinct, repeat(size)))
    ordered = sorted(set(spans))
    for span in ordered:
        if span[2] != 1:
            raise ValueError(f"strided shard index {slice(*span)!r} is not supported")
    number = {span: k for k, span in enumerate(ordered)}
    if len(distinct) == len(entries):
        column = list(map(number.__getitem__, spans))
    else:
        by_id = dict(zip(objects, map(number.__getitem__, spans), strict=True))
        column = list(map(by_id.__getitem__, ids))
    starts = {start: i for i, start in enumerate(sorted({span[0] for span in ordered}))}
    dim = _Dim(
        bounds=[(a, b) for a, b, _ in ordered],
        texts=[f"{a}:{b}" for a, b, _ in ordered],
        extents=[b - a for a, b, _ in ordered],
        positions=[starts[a] for a, _, _ in ordered],
        grid=len(starts),
    )
    return dim, column


def mixed_radix(columns: list[list[int]], radices: list[int], count: int) -> list[int]:
    """One integer per row of ``columns`` (digit ``d`` below ``radices[d]``): equal rows give
    equal keys, and keys sort as the rows do."""
    if not columns:
        return [0] * count
    keys = columns[0]
    for column, radix in zip(columns[1:], radices[1:], strict=True):
        keys = list(map(add, map(mul, keys, repeat(radix)), column))
    return keys


def _merged(
    keys: list[int], holders: list[Sequence[Device]]
) -> tuple[list[int], list[Sequence[Device]]]:
    """The first entry of each distinct key, in order of first appearance, and every device of
    the entries with that key."""
    first: dict[int, int] = {}
    merged: dict[int, list[Device]] = {}
    for i, key in enumerate(keys):
        held = merged.get(key)
        if held is None:
            first[key] = i
            merged[key] = list(holders[i])
        else:
            held.extend(holders[i])
    return list(first.values()), list(merged.values())


_KNOWN: dict[Any, Device] = {}


_KNOWN_LIMIT = 1 << 16


def _devices(raw: list[Any]) -> list[Device]:
    """The ``Device`` of each raw device. A process's devices never change, so each one's
    description is kept (up to ``_KNOWN_LIMIT`` devices) and read once."""
    try:
        return list(map(_KNOWN.__getitem__, raw))
    except (KeyError, TypeError):
        pass
    try:
        ids = map(int, map(attrgetter("id"), raw))
        platforms = map(str, map(attrgetter("platform"), raw))
        processes = map(int, map(attrgetter("process_index"), raw))
        made = list(map(tuple.__new__, repeat(Device), zip(ids, platforms, processes, strict=True)))
    except AttributeError:
        made = [_device(device) for device in raw]
    if len(_KNOWN) + len(raw) > _KNOWN_LIMIT:
        _KNOWN.clear()
    with contextlib.suppress(TypeError):  # unhashable devices are described afresh each time
        _KNOWN.update(zip(raw, made, strict=True))
    return made


def _runs_of_objects(
    values: list[Any], devices: list[Device]
) -> tuple[list[Any], list[Sequence[Device]]] | None:
    """Each run of one index object in ``values`` and the devices of that run, when no object
    comes back after its run ends; otherwise None."""
    count = len(values)
    starts = [0, *compress(range(1, count), map(is_not, values[1:], values[:-1]))]
    firsts = list(map(values.__getitem__, starts))
    if len(set(map(id, firsts))) != len(starts):
        return None
    spans = map(slice, starts, [*starts[1:], count])
    return firsts, list(map(devices.__getitem__, spans))


def _by_index_object(
    values: list[Any], object_ids: list[int], devices: list[Device], distinct: int
) -> list[tuple[Any, list[Device]]]:
    """The devices sharing each index object, in order of first appearance; the grouping is
    one numpy pass (consecutive runs when each object's devices come together, else a sort),
    so only the ``distinct`` indices cost Python work."""
    import numpy as np

    keys = np.array(object_ids, dtype=np.uint64)
    starts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist()]
    if len(starts) == distinct:
        ends = [*starts[1:], len(values)]
        return [
            (values[start], devices[start:end]) for start, end in zip(starts, ends, strict=True)
        ]
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    members = np.split(np.argsort(inverse, kind="stable"), np.cumsum(np.bincount(inverse))[:-1])
    return [
        (values[first[g]], list(map(devices.__getitem__, members[g].tolist())))
        for g in np.argsort(first).tolist()
    ]


def _span(entry: Any, size: int) -> _Span:
    """``(start, stop, step)`` of one index entry, a slice or an integer position."""
    if isinstance(entry, slice):
        return entry.indices(size)
    position = int(entry)
    return position, position + 1, 1


def _device(device: Any) -> Device:
    """The ``Device`` of any object with ``id`` and ``platform``; no ``process_index`` means 0."""
    try:
        return Device(
            int(device.id), str(device.platform), int(getattr(device, "process_index", 0))
        )
    except AttributeError as err:
        raise TypeError(f"devices need id and platform attributes; {device!r} lacks one") from err

"""The pure sharding layout: which index slice of an array each device holds, as a grid of cells.

Everything is computed from ``sharding.devices_indices_map(shape)``, so any sharding JAX has (and
any object with that method whose devices have ``id``, ``platform`` and ``process_index``) works.
The renderers (text, HTML, widget) only read this model.
"""

from __future__ import annotations

import contextlib
import math
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, groupby, repeat
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from jaxdbg_widgets.sharding.bulk import collector_paused


class Device(NamedTuple):
    """The parts of a device the views show."""

    id: int
    platform: str
    process_index: int


class Cell(NamedTuple):
    """One distinct shard: its index range per dimension and every device holding a copy.

    ``label`` is ``CPU 0,1`` (platform and holders), ``index_text`` the slices, e.g. ``[0:16, 8:16]``.
    Build it with :func:`make_cell`, which derives the fields after ``devices``.
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


def make_cell(
    bounds: tuple[tuple[int, int], ...], position: tuple[int, ...], devices: Sequence[Device]
) -> Cell:
    """A cell for the shard at ``bounds`` held by ``devices`` (sorted by id here)."""
    key = tuple((a, b, 1) for a, b in bounds)
    spans = [
        {span: ((span[0], span[1]), f"{span[0]}:{span[1]}", span[1] - span[0], p)}
        for span, p in zip(key, position, strict=True)
    ]
    return _made_cells({key: list(devices)}, spans)[0]


_Span = tuple[int, int, int]
_SpanInfo = tuple[tuple[int, int], str, int, int]


def _made_cells(
    by_span: dict[tuple[_Span, ...], Sequence[Device]], spans: list[dict[_Span, _SpanInfo]]
) -> list[Cell]:
    """One cell per shard; ``spans[d]`` gives each span of dim ``d`` its bounds, text, extent and
    grid position, written once per span. Fields are gathered a dimension at a time, so the
    per-cell work is only the holders and the label."""
    keys = list(by_span)
    count = len(keys)
    columns = [
        list(map(known.__getitem__, map(itemgetter(d), keys))) for d, known in enumerate(spans)
    ]

    def field(i: int) -> list[tuple[Any, ...]]:
        return (
            list(zip(*[map(itemgetter(i), column) for column in columns], strict=True))
            or [()] * count
        )

    bounds, extents, positions = field(0), field(2), field(3)
    texts = [map(itemgetter(1), column) for column in columns]
    template = "[" + ", ".join(["{}"] * len(texts)) + "]"
    index_texts = list(map(template.format, *texts)) if texts else [template] * count
    groups = list(by_span.values())
    if set(map(len, groups)) == {1}:  # one device per shard: every field a column at a time
        held = list(map(tuple, groups))
        devices = list(map(itemgetter(0), groups))
        ids = list(zip(map(itemgetter(0), devices)))
        processes = list(zip(map(itemgetter(2), devices)))
        names = list(_id_texts(list(map(itemgetter(0), devices))))
    else:
        held = [tuple(group) if len(group) == 1 else tuple(sorted(group)) for group in groups]
        ids = [tuple(map(itemgetter(0), devices)) for devices in held]
        processes = [tuple(sorted(set(map(itemgetter(2), devices)))) for devices in held]
        names = [",".join(_id_texts(group)) for group in ids]
    raw_platforms = list(map(itemgetter(1), map(itemgetter(0), held)))
    upper = {name: name.upper() for name in set(raw_platforms)}
    platforms = list(map(upper.__getitem__, raw_platforms))
    if len(upper) == 1:  # one platform: its name and a space, then the holders
        labels = list(map((platforms[0] + " ").__add__, names))
    else:
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


_ID_TEXT: list[str] = []
_ID_TEXT_LIMIT = 1 << 16


def _id_texts(ids: Sequence[int]) -> Iterable[str]:
    """``str`` of each device id; small non-negative ids are read from a table kept across
    calls, as a process's device ids are few and drawn again and again."""
    if not ids or min(ids) < 0 or max(ids) >= _ID_TEXT_LIMIT:
        return map(str, ids)
    top = max(ids)
    if top >= len(_ID_TEXT):
        _ID_TEXT.extend(map(str, range(len(_ID_TEXT), top + 1)))
    return map(_ID_TEXT.__getitem__, ids)


@dataclass(frozen=True)
class Facet:
    """One 2-D grid of cells: the whole array up to rank 2, one slab of the leading dims above."""

    title: str
    row_dim: int | None
    col_dim: int | None
    rows: int
    cols: int
    cells: tuple[tuple[int, int, Cell], ...]
    numbers: tuple[int, ...] = ()  # each cell's place in the layout's cells


@dataclass(frozen=True)
class ShardingLayout:
    """Shape, cells and mesh description of one array's sharding."""

    shape: tuple[int, ...]
    cells: tuple[Cell, ...]
    grid: tuple[int, ...]
    kind: str
    mesh_axes: tuple[tuple[str, int], ...]
    spec: tuple[tuple[str, ...] | None, ...] | None
    dtype: str | None
    itemsize: int | None
    nominal_shape: bool = False

    @cached_property
    def devices(self) -> tuple[Device, ...]:
        return tuple(sorted(chain.from_iterable(map(attrgetter("devices"), self.cells))))

    @cached_property
    def process_indices(self) -> tuple[int, ...]:
        held = chain.from_iterable(map(attrgetter("process_indices"), self.cells))
        return tuple(sorted(set(held)))

    @property
    def is_fully_replicated(self) -> bool:
        return len(self.cells) == 1 and self.cells[0].replicas > 1

    def shard_bytes(self, cell: Cell) -> int | None:
        return None if self.itemsize is None else math.prod(cell.shard_shape) * self.itemsize

    def spec_text(self) -> str | None:
        """The PartitionSpec as ``P('x', None)``, or None when the sharding has no mesh."""
        if self.spec is None:
            return None
        return "P(" + ", ".join(_spec_entry_text(entry) for entry in self.spec) + ")"

    def dim_label(self, dim: int) -> str:
        """``dim 1`` plus the mesh axes that split it, e.g. ``dim 0: x`` or ``dim 1: (x, y)``."""
        axes = self.spec[dim] if self.spec is not None and dim < len(self.spec) else None
        if not axes:
            return f"dim {dim}"
        return f"dim {dim}: " + (axes[0] if len(axes) == 1 else "(" + ", ".join(axes) + ")")

    def replicated_axes(self) -> tuple[str, ...]:
        """Mesh axes that split no dimension: the array is copied along them."""
        used = {axis for entry in self.spec or () for axis in entry or ()}
        return tuple(name for name, _ in self.mesh_axes if name not in used)

    def facets(self, rows: int | None = None, cols: int | None = None) -> list[Facet]:
        """Grids to draw: one up to rank 2; above it, one per chunk of the other dimensions.

        ``rows`` and ``cols`` choose which dimensions run down and across (default: the last two).
        """
        row_dim, col_dim = _grid_dims(len(self.shape), rows, cols)
        outer = [d for d in range(len(self.shape)) if d not in (row_dim, col_dim)]
        positions = list(map(attrgetter("position"), self.cells))
        down = repeat(0) if row_dim is None else map(itemgetter(row_dim), positions)
        across = repeat(0) if col_dim is None else map(itemgetter(col_dim), positions)
        placed_all = list(zip(down, across, self.cells, strict=False))  # repeat(0) is endless
        spots = list(map(_row_and_column, placed_all))
        groups: dict[Any, list[int]] = {(): list(range(len(placed_all)))}
        if outer:  # a facet's cells, in layout order: as they come, or after a stable sort
            keys = list(map(itemgetter(*outer), positions))
            runs = _runs(range(len(keys)), keys)
            if runs is None:
                runs = _runs(sorted(range(len(keys)), key=keys.__getitem__), keys)
            groups = runs or {}
        facets = []
        for _, members in sorted(groups.items()):
            ordered = sorted(members, key=spots.__getitem__)
            facets.append(
                Facet(
                    title=_facet_title(self.shape, outer, self.cells[members[0]]) if outer else "",
                    row_dim=row_dim,
                    col_dim=col_dim,
                    rows=1 if row_dim is None else self.grid[row_dim],
                    cols=1 if col_dim is None else self.grid[col_dim],
                    cells=tuple(map(placed_all.__getitem__, ordered)),
                    numbers=tuple(ordered),
                )
            )
        return facets


def _runs(order: Iterable[int], keys: list[Any]) -> dict[Any, list[int]] | None:
    """The members of ``order`` gathered by key, when each key's members come together in it;
    otherwise None."""
    groups: dict[Any, list[int]] = {}
    for key, members in groupby(order, keys.__getitem__):
        if key in groups:
            return None
        groups[key] = list(members)
    return groups


def sharding_layout(
    shape: Sequence[int], sharding: Any, *, dtype: Any = None, nominal_shape: bool = False
) -> ShardingLayout:
    """Compute the layout of an array of ``shape`` under ``sharding`` (``dtype`` adds byte sizes).

    ``nominal_shape`` marks a shape made up to draw a sharding on its own (no real array).
    """
    shape = _checked_shape(shape)
    with collector_paused():
        by_span = _grouped_by_span(_indices_map(sharding, shape), shape)
        spans = _dimension_spans(by_span, len(shape))
        cells = _made_cells(by_span, spans)
        cells.sort(key=attrgetter("position"))
    mesh_axes, spec = _mesh_and_spec(sharding)
    dtype_name, itemsize = _dtype_info(dtype)
    return ShardingLayout(
        shape=shape,
        cells=tuple(cells),
        grid=tuple(len({info[3] for info in known.values()}) for known in spans),
        kind=type(sharding).__name__,
        mesh_axes=mesh_axes,
        spec=spec,
        dtype=dtype_name,
        itemsize=itemsize,
        nominal_shape=nominal_shape,
    )


def _checked_shape(shape: Sequence[int]) -> tuple[int, ...]:
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"shape must be a sequence of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"shape dimensions must be non-negative, got {dims}")
    return dims


def _indices_map(sharding: Any, shape: tuple[int, ...]) -> dict[Any, Any]:
    method = getattr(sharding, "devices_indices_map", None)
    if method is None:
        raise TypeError(
            f"expected a jax.sharding.Sharding (anything with devices_indices_map), "
            f"got {type(sharding).__name__}"
        )
    return dict(method(shape))


def _grouped_by_span(
    indices: dict[Any, Any], shape: tuple[int, ...]
) -> dict[tuple[_Span, ...], Sequence[Device]]:
    """The devices holding each distinct shard, keyed by ``(start, stop, step)`` per dimension.

    Devices are first gathered by index object (replicas often share one), so each index is
    read once; the devices' attributes are then read a group at a time.
    """
    rank = len(shape)
    devices = _devices(list(indices))
    values = list(indices.values())
    object_ids = list(map(id, values))
    distinct = len(set(object_ids))
    if distinct == len(values):  # no shared index objects: one device each
        fast = _distinct_slice_groups(values, shape, devices)
        if fast is not None:
            return fast
        by_object = list(zip(values, map(list, zip(devices)), strict=True))
    else:
        by_object = _by_index_object(values, object_ids, devices, distinct)
    read = slice.indices
    groups: dict[tuple[_Span, ...], list[Device]] = {}
    for index, held_here in by_object:
        if len(index) != rank:
            raise ValueError(f"sharding index {index!r} does not match an array of rank {rank}")
        try:
            key = tuple(map(read, index, shape))
        except TypeError:
            key = tuple(map(_span, index, shape))
        held = groups.get(key)
        if held is None:
            groups[key] = held_here
        else:
            held.extend(held_here)
    return groups


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


def _distinct_slice_groups(
    values: list[Any], shape: tuple[int, ...], devices: list[Device]
) -> dict[tuple[_Span, ...], Sequence[Device]] | None:
    """Each device under its index's ``(start, stop, step)`` per dimension, read in one pass
    without a Python loop, when each index is a tuple of slices of the right rank and no two
    are equal; otherwise None (replicas, integer entries and errors take the general path)."""
    if set(map(len, values)) != {len(shape)}:
        return None
    try:
        spans = [
            list(map(slice.indices, map(itemgetter(d), values), repeat(size)))
            for d, size in enumerate(shape)
        ]
    except TypeError:
        return None
    keys = list(zip(*spans, strict=True)) or [()] * len(values)
    groups = dict(zip(keys, zip(devices), strict=True))
    return groups if len(groups) == len(keys) else None


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


def _dimension_spans(
    by_span: dict[tuple[_Span, ...], Any], rank: int
) -> list[dict[_Span, _SpanInfo]]:
    """Per dimension, each distinct span's bounds, ``start:stop`` text, extent and grid position.

    Positions number the distinct starts in order, so spans sharing a start share a position.
    """
    result = []
    for d in range(rank):
        distinct = set(map(itemgetter(d), by_span))
        for span in distinct:
            if span[2] != 1:
                raise ValueError(f"strided shard index {slice(*span)!r} is not supported")
        order = {start: i for i, start in enumerate(sorted({span[0] for span in distinct}))}
        result.append({(a, b, c): ((a, b), f"{a}:{b}", b - a, order[a]) for a, b, c in distinct})
    return result


def _device(device: Any) -> Device:
    try:
        return Device(int(device.id), str(device.platform), int(device.process_index))
    except AttributeError as err:
        raise TypeError(
            f"devices need id, platform and process_index attributes; {device!r} lacks one"
        ) from err


_row_and_column = operator.itemgetter(0, 1)


def _mesh_and_spec(
    sharding: Any,
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, ...] | None, ...] | None]:
    mesh = getattr(sharding, "mesh", None)
    spec = getattr(sharding, "spec", None)
    if mesh is None or spec is None:
        return (), None
    axes = tuple((str(name), int(size)) for name, size in dict(mesh.shape).items())
    return axes, tuple(_spec_entry(entry) for entry in spec)


def _spec_entry(entry: Any) -> tuple[str, ...] | None:
    if entry is None:
        return None
    if isinstance(entry, str):
        return (entry,)
    if isinstance(entry, tuple | list):
        return tuple(str(name) for name in entry)
    return (str(entry),)


def _spec_entry_text(entry: tuple[str, ...] | None) -> str:
    if entry is None:
        return "None"
    if len(entry) == 1:
        return repr(entry[0])
    return "(" + ", ".join(repr(name) for name in entry) + ")"


def _dtype_info(dtype: Any) -> tuple[str | None, int | None]:
    """The dtype's name and item size; JAX's extended dtypes (typed PRNG keys such as
    ``key<fry>``) are not numpy dtypes but carry both."""
    if dtype is None:
        return None, None
    import numpy as np

    try:
        resolved = np.dtype(dtype)
    except TypeError:
        itemsize = getattr(dtype, "itemsize", None)
        if itemsize is None:
            raise
        return str(dtype), int(itemsize)
    return str(resolved), int(resolved.itemsize)


def _grid_dims(rank: int, rows: int | None, cols: int | None) -> tuple[int | None, int | None]:
    for name, dim in (("rows", rows), ("cols", cols)):
        if dim is not None and not (isinstance(dim, int) and -rank <= dim < rank and rank >= 2):
            raise ValueError(f"{name}={dim!r} is not a dimension of a rank-{rank} array")
    if rank == 0:
        return None, None
    if rank == 1:
        return None, 0
    row_dim = rank - 2 if rows is None else rows % rank
    col_dim = rank - 1 if cols is None else cols % rank
    if rows is None and col_dim == row_dim:
        row_dim = rank - 1 if col_dim != rank - 1 else rank - 2
    if cols is None and col_dim == row_dim:
        col_dim = rank - 1 if row_dim != rank - 1 else rank - 2
    if row_dim == col_dim:
        raise ValueError(f"rows and cols must be different dimensions, both are {row_dim}")
    return row_dim, col_dim


def _facet_title(shape: tuple[int, ...], outer: list[int], cell: Cell) -> str:
    parts = [
        f"{cell.bounds[d][0]}:{cell.bounds[d][1]}" if d in outer else ":" for d in range(len(shape))
    ]
    return "[" + ", ".join(parts) + "]"

"""The pure sharding layout: which index slice of an array each device holds, as a grid of cells.

Everything is computed from ``sharding.devices_indices_map(shape)``, so any sharding JAX has (and
any object with that method whose devices have ``id`` and ``platform``) works; a device without a
``process_index`` is read as one of process 0, as a single-process program's devices are.
The renderers (text, HTML, widget) only read this model.
"""

from __future__ import annotations

import contextlib
import math
import operator
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, chain, compress, groupby, repeat
from operator import add, attrgetter, is_not, itemgetter, mul
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
        names = list(_id_texts(raw_ids))
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


def holders_text(ids: Sequence[int], separator: str) -> str:
    """The holders of one shard: ``0,4`` for a few (as JAX writes them); past
    :data:`HOLDERS_LISTED`, runs of consecutive ids and the count, ``0–255 ×256`` or
    ``0,16,32,… ×256``, so heavy replication does not make a label as wide as its devices."""
    ordered = sorted(ids)
    if len(ordered) <= HOLDERS_LISTED:
        return separator.join(map(str, ordered))
    runs: list[list[int]] = []
    for i in ordered:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    parts = [f"{a}–{b}" if b > a else f"{a}" for a, b in runs]
    if len(parts) > RUNS_SHOWN + 1:
        parts = [*parts[:RUNS_SHOWN], "…"]
    return f"{separator.join(parts)} ×{len(ordered)}"


def joined_id_texts(groups: Sequence[Sequence[int]], separator: str) -> list[str]:
    """Each group of device ids written out and joined by ``separator``; the ids of all groups
    are written in one pass."""
    texts = list(_id_texts(list(chain.from_iterable(groups))))
    ends = list(accumulate(map(len, groups)))
    spans = map(slice, [0, *ends[:-1]], ends)
    return list(map(separator.join, map(texts.__getitem__, spans)))


def _id_texts(ids: Sequence[int]) -> Iterable[str]:
    """``str`` of each device id; small non-negative ids are read from a table kept across
    calls, as a process's device ids are few and drawn again and again."""
    top = max(ids, default=-1)
    if top < 0 or top >= _ID_TEXT_LIMIT or min(ids) < 0:
        return map(str, ids)
    if top >= len(_ID_TEXT):
        _ID_TEXT.extend(map(str, range(len(_ID_TEXT), top + 1)))
    return map(_ID_TEXT.__getitem__, ids)


PROCESS_RIGHT = 1
PROCESS_BELOW = 2
"""The sides of a grid position whose neighbour there is held by other processes."""


def process_edges(placed: Iterable[tuple[int, int, tuple[int, ...]]]) -> dict[tuple[int, int], int]:
    """``(row, col) -> sides`` (:data:`PROCESS_RIGHT` | :data:`PROCESS_BELOW`) for the positions
    of one facet, given as ``(row, col, process indices)``, whose neighbour to the right or below
    is held by another set of processes: where the views draw a process boundary."""
    held = {(r, c): processes for r, c, processes in placed}
    edges: dict[tuple[int, int], int] = {}
    for (r, c), processes in held.items():
        right, below = held.get((r, c + 1), processes), held.get((r + 1, c), processes)
        sides = (PROCESS_RIGHT if right != processes else 0) | (
            PROCESS_BELOW if below != processes else 0
        )
        if sides:
            edges[(r, c)] = sides
    return edges


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
    """Shape, cells and mesh description of one array's sharding; ``places`` holds each
    dimension's grid position of every cell (read from ``cells`` when not given).

    ``axis_types`` names each mesh axis's type (``Explicit``, ``Auto``, ``Manual``) in the order
    of ``mesh_axes``, empty where JAX gives none; ``unreduced`` and ``reduced`` are the spec's
    axes of those kinds (empty before JAX had them), and ``unreduced_kind`` the reduction an
    unreduced array still owes (``sum`` where JAX does not say).
    """

    shape: tuple[int, ...]
    cells: tuple[Cell, ...]
    grid: tuple[int, ...]
    kind: str
    mesh_axes: tuple[tuple[str, int], ...]
    spec: tuple[tuple[str, ...] | None, ...] | None
    dtype: str | None
    itemsize: int | None
    nominal_shape: bool = False
    places: tuple[list[int], ...] | None = field(default=None, repr=False, compare=False)
    axis_types: tuple[str, ...] = ()
    unreduced: tuple[str, ...] = ()
    reduced: tuple[str, ...] = ()
    unreduced_kind: str = ""

    @cached_property
    def devices(self) -> tuple[Device, ...]:
        return tuple(sorted(chain.from_iterable(map(attrgetter("devices"), self.cells))))

    @cached_property
    def process_indices(self) -> tuple[int, ...]:
        held = chain.from_iterable(map(attrgetter("process_indices"), self.cells))
        return tuple(sorted(set(held)))

    @property
    def is_fully_replicated(self) -> bool:
        """One shard held whole by several devices as copies: no unreduced axes (partial
        results) and no Manual axis splitting nothing (blocks of their own)."""
        whole = len(self.cells) == 1 and self.cells[0].replicas > 1
        return whole and not self.unreduced and not self.own_block_axes()

    def shard_bytes(self, cell: Cell) -> int | None:
        return None if self.itemsize is None else math.prod(cell.shard_shape) * self.itemsize

    def spec_text(self) -> str | None:
        """The PartitionSpec as ``P('x', None)``, or None when the sharding has no mesh."""
        if self.spec is None:
            return None
        entries = [_spec_entry_text(entry) for entry in self.spec]
        for name, axes in (("unreduced", self.unreduced), ("reduced", self.reduced)):
            if axes:
                entries.append(name + "={" + ", ".join(map(repr, axes)) + "}")
        return "P(" + ", ".join(entries) + ")"

    def dim_label(self, dim: int) -> str:
        """``dim 1`` plus the mesh axes that split it, e.g. ``dim 0: x`` or ``dim 1: (x, y)``."""
        axes = self.spec[dim] if self.spec is not None and dim < len(self.spec) else None
        if not axes:
            return f"dim {dim}"
        return f"dim {dim}: " + (axes[0] if len(axes) == 1 else "(" + ", ".join(axes) + ")")

    def replicated_axes(self) -> tuple[str, ...]:
        """Mesh axes that split no dimension, hold no partial sums and are not Manual: the
        array is copied along them."""
        used = {axis for entry in self.spec or () for axis in entry or ()}
        used.update(self.unreduced, self.own_block_axes())
        return tuple(name for name, _ in self.mesh_axes if name not in used)

    def own_block_axes(self) -> tuple[str, ...]:
        """Manual mesh axes that split no dimension: inside ``shard_map`` each device along
        them holds a block of its own, which the sharding does not say are copies."""
        used = {axis for entry in self.spec or () for axis in entry or ()}
        named = zip(self.mesh_axes, self.axis_types, strict=False)
        return tuple(name for (name, _), kind in named if kind == "Manual" and name not in used)

    def axis_types_text(self) -> str | None:
        """``(Explicit, Auto)``: each mesh axis's type in mesh order, as JAX's ``Mesh`` repr
        writes them; None when the mesh has no axis types."""
        return f"({', '.join(self.axis_types)})" if self.axis_types else None

    @cached_property
    def position_columns(self) -> list[list[int]]:
        """Each dimension's grid position of every cell, one list per dimension (``places``
        when the layout was built with them)."""
        if self.places is not None:
            return list(self.places)
        positions = list(map(attrgetter("position"), self.cells))
        return [list(map(itemgetter(d), positions)) for d in range(len(self.shape))]

    def facet_plan(self, rows: int | None = None, cols: int | None = None) -> FacetPlan:
        """Where :meth:`facets` puts the cells, as integer lists (no per-cell objects).

        ``rows`` and ``cols`` choose which dimensions run down and across (default: the last two).
        """
        row_dim, col_dim = _grid_dims(len(self.shape), rows, cols)
        outer = [d for d in range(len(self.shape)) if d not in (row_dim, col_dim)]
        columns = self.position_columns
        count = len(self.cells)
        down = [0] * count if row_dim is None else columns[row_dim]
        across = [0] * count if col_dim is None else columns[col_dim]
        n_rows = 1 if row_dim is None else self.grid[row_dim]
        n_cols = 1 if col_dim is None else self.grid[col_dim]
        groups: list[Sequence[int]] = [range(count)]
        if outer:  # a facet's cells, in layout order: as they come, or after a stable sort
            keys = _mixed_radix([columns[d] for d in outer], [self.grid[d] for d in outer], count)
            runs = _runs(range(count), keys)
            if runs is None:
                runs = _runs(sorted(range(count), key=keys.__getitem__), keys) or {}
            groups = [runs[key] for key in sorted(runs)]
        spots = _mixed_radix([down, across], [n_rows, n_cols], count)
        members = [_ordered(group, spots) for group in groups]
        titles = [
            _facet_title(self.shape, outer, self.cells[m[0]]) if outer else "" for m in members
        ]
        return FacetPlan(row_dim, col_dim, n_rows, n_cols, down, across, spots, members, titles)

    def facets(self, rows: int | None = None, cols: int | None = None) -> list[Facet]:
        """Grids to draw: one up to rank 2; above it, one per chunk of the other dimensions.

        ``rows`` and ``cols`` choose which dimensions run down and across (default: the last two).
        """
        plan = self.facet_plan(rows, cols)
        placed_all = list(zip(plan.down, plan.across, self.cells, strict=True))
        return [
            Facet(
                title=title,
                row_dim=plan.row_dim,
                col_dim=plan.col_dim,
                rows=plan.rows,
                cols=plan.cols,
                cells=tuple(map(placed_all.__getitem__, members)),
                numbers=tuple(members),
            )
            for members, title in zip(plan.members, plan.titles, strict=True)
        ]


class FacetPlan(NamedTuple):
    """The facets of a layout as integer lists: the dimensions drawn down and across and their
    track counts, each cell's row, column and grid position, and each facet's cells (numbers
    into the layout's cells, in row-major order) with its title."""

    row_dim: int | None
    col_dim: int | None
    rows: int
    cols: int
    down: list[int]
    across: list[int]
    spots: list[int]  # row * cols + column
    members: list[Sequence[int]]
    titles: list[str]

    def full(self) -> bool:
        """Whether every facet has one cell at each grid position."""
        size = self.rows * self.cols
        order = chain.from_iterable(self.members)
        return list(map(self.spots.__getitem__, order)) == list(range(size)) * len(self.members)


def _ordered(group: Sequence[int], spots: list[int]) -> Sequence[int]:
    """The cell numbers of ``group`` in row-major order of their spots (stable); a range of
    cell numbers already in that order stays a range."""
    if isinstance(group, range):
        here = spots[group.start : group.stop]
    else:
        here = list(map(spots.__getitem__, group))
    return group if here == sorted(here) else sorted(group, key=spots.__getitem__)


def _runs(order: Sequence[int], keys: list[Any]) -> dict[Any, Sequence[int]] | None:
    """The members of ``order`` gathered by key, when each key's members come together in it
    (as slices of ``order``); otherwise None."""
    groups: dict[Any, Sequence[int]] = {}
    start = 0
    for key, members in groupby(map(keys.__getitem__, order)):
        if key in groups:
            return None
        stop = start + len(list(members))
        groups[key] = order[start:stop]
        start = stop
    return groups


def sharding_layout(
    shape: Any, sharding: Any = None, *, dtype: Any = None, nominal_shape: bool = False
) -> ShardingLayout:
    """Compute the layout of an array of ``shape`` under ``sharding`` (``dtype`` adds byte sizes).

    ``shape`` may be the array itself (a ``jax.Array``, or a ``jax.ShapeDtypeStruct`` with a
    sharding): its shape, sharding and dtype are used unless given. ``nominal_shape`` marks a
    shape made up to draw a sharding on its own (no real array).
    """
    shape, sharding, dtype = shape_and_sharding(shape, sharding, dtype)
    shape = _checked_shape(shape)
    _check_rank(sharding, shape)
    with collector_paused():
        cells, grid, places = _layout_cells(_indices_map(sharding, shape), shape)
    mesh_axes, spec = _mesh_and_spec(sharding)
    semantics = _spec_semantics(sharding) if spec is not None else _NO_SEMANTICS
    dtype_name, itemsize = _dtype_info(dtype)
    return ShardingLayout(
        shape=shape,
        cells=tuple(cells),
        grid=tuple(grid),
        places=tuple(places),
        kind=type(sharding).__name__,
        mesh_axes=mesh_axes,
        spec=spec,
        dtype=dtype_name,
        itemsize=itemsize,
        nominal_shape=nominal_shape,
        axis_types=semantics.axis_types if len(semantics.axis_types) == len(mesh_axes) else (),
        unreduced=semantics.unreduced,
        reduced=semantics.reduced,
        unreduced_kind=semantics.unreduced_kind,
    )


def shape_and_sharding(target: Any, sharding: Any, dtype: Any) -> tuple[Any, Any, Any]:
    """``(shape, sharding, dtype)`` from a shape and a sharding, or from an array alone, so every
    view takes an array as ``visualize_array_sharding`` does; anything else is a TypeError."""
    if not _is_array(target):
        if sharding is None:
            raise TypeError(
                "expected an array with a sharding (a jax.Array, or a jax.ShapeDtypeStruct "
                "with one), or a shape and a sharding; got "
                f"{type(target).__name__} {_short(target)} and no sharding"
            )
        return target, sharding, dtype
    if _is_tracer(target):
        raise TypeError(
            "got a traced array: its sharding is known only once the function is compiled; "
            "inside jit use jaxdbg_widgets.visualize_array_sharding or inspect_array_sharding"
        )
    if sharding is None:
        sharding = getattr(target, "sharding", None)
    if sharding is None:
        raise TypeError(
            f"a {type(target).__name__} has no sharding: pass a jax.Array, a "
            "jax.ShapeDtypeStruct with a sharding, or (shape, sharding)"
        )
    return tuple(target.shape), sharding, target.dtype if dtype is None else dtype


def _check_rank(sharding: Any, shape: tuple[int, ...]) -> None:
    """A spec naming more dimensions than the shape has is a clear ValueError (JAX raises an
    IndexError from deep inside)."""
    spec = getattr(sharding, "spec", None)
    named = len(spec) if hasattr(spec, "__len__") else 0
    if named > len(shape):
        raise ValueError(
            f"the sharding's spec {spec} names {named} dimensions, but the shape {shape} "
            f"has {len(shape)}"
        )


def _is_array(value: Any) -> bool:
    """Whether ``value`` is an array (it has a shape and a dtype), not a shape to draw."""
    return hasattr(value, "shape") and hasattr(value, "dtype")


def _is_tracer(value: Any) -> bool:
    """Whether ``value`` is a JAX tracer (JAX is imported already if it is one)."""
    core = sys.modules.get("jax.core")
    return core is not None and isinstance(value, core.Tracer)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


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
    try:
        return dict(method(shape))
    except (NotImplementedError, AssertionError, ValueError):
        plain = _mappable(sharding)
        if plain is None:
            raise
        return dict(plain.devices_indices_map(shape))


def _mappable(sharding: Any) -> Any:
    """The sharding with what JAX cannot map left out, None when nothing is left out.

    JAX (0.7 to 0.12) maps no indices for a spec with unreduced axes, nor for a mesh with
    Manual axes (JAX 0.7 not for reduced axes either), yet each device holds one block all the
    same: the index map is the one with the spec's unreduced and reduced axes dropped and
    Manual axes read as Auto, and the layout keeps ``unreduced``, ``reduced`` and
    ``axis_types`` to say the holders are partial results or blocks of their own, not copies.
    """
    spec, mesh = getattr(sharding, "spec", None), getattr(sharding, "mesh", None)
    beyond = getattr(spec, "unreduced", None) or getattr(spec, "reduced", None)
    types = tuple(getattr(mesh, "axis_types", None) or ())
    manual = [getattr(t, "name", None) == "Manual" for t in types]
    if not (beyond or any(manual)) or not hasattr(sharding, "update"):
        return None
    changes: dict[str, Any] = {}
    if beyond:
        changes["spec"] = type(spec)(*_spec_entries(spec))
    if any(manual):
        auto = type(types[0]).Auto
        changes["mesh"] = _with_axis_types(
            mesh, tuple(auto if m else t for m, t in zip(manual, types, strict=True))
        )
    return sharding.update(**changes)


def _with_axis_types(mesh: Any, types: tuple[Any, ...]) -> Any:
    """``mesh`` with other axis types; JAX before 0.8 has no ``Mesh.update``, only the
    constructor."""
    if hasattr(mesh, "update"):
        return mesh.update(axis_types=types)
    return type(mesh)(mesh.devices, mesh.axis_names, axis_types=types)


def _layout_cells(
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
    order_keys = _mixed_radix(places, grids, len(indexes))
    if len(set(order_keys)) != len(order_keys):  # shards sharing a place may be equal shards
        keys = _mixed_radix(numbers, [len(dim.bounds) for dim in dims], len(indexes))
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


def _mixed_radix(columns: list[list[int]], radices: list[int], count: int) -> list[int]:
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


def _mesh_and_spec(
    sharding: Any,
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, ...] | None, ...] | None]:
    mesh = getattr(sharding, "mesh", None)
    spec = getattr(sharding, "spec", None)
    if mesh is None or spec is None:
        return (), None
    axes = tuple((str(name), int(size)) for name, size in dict(mesh.shape).items())
    return axes, tuple(_spec_entry(entry) for entry in _spec_entries(spec))


def _spec_entries(spec: Any) -> tuple[Any, ...]:
    """A spec's per-dimension entries: JAX 0.12 refuses to iterate a spec with unreduced or
    reduced axes and has ``partitions``, which JAX before 0.8 lacks."""
    entries = getattr(spec, "partitions", None)
    return tuple(spec if entries is None else entries)


class _Semantics(NamedTuple):
    """What a mesh and spec say beyond the layout: axis types and unreduced/reduced axes."""

    axis_types: tuple[str, ...]
    unreduced: tuple[str, ...]
    reduced: tuple[str, ...]
    unreduced_kind: str


_NO_SEMANTICS = _Semantics((), (), (), "")


def _spec_semantics(sharding: Any) -> _Semantics:
    """The mesh's axis types and the spec's unreduced and reduced axes, read from their public
    attributes where this JAX has them (``Mesh.axis_types``; ``PartitionSpec.unreduced``,
    ``.reduced`` and, from JAX 0.12, ``.unreduced_kind``), empty where it has not."""
    types = getattr(sharding.mesh, "axis_types", None) or ()
    spec = sharding.spec
    unreduced = _axis_names(getattr(spec, "unreduced", None))
    kind = getattr(spec, "unreduced_kind", None)
    if kind is None:
        kind = "sum" if unreduced else ""
    return _Semantics(
        axis_types=tuple(str(getattr(t, "name", t)) for t in types),
        unreduced=unreduced,
        reduced=_axis_names(getattr(spec, "reduced", None)),
        unreduced_kind=str(getattr(kind, "name", kind)),
    )


def _axis_names(axes: Any) -> tuple[str, ...]:
    """A set of mesh axis names, sorted so every view lists them alike."""
    return tuple(sorted(map(str, axes or ())))


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

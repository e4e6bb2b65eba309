"""The pure sharding layout: which index slice of an array each device holds, as a grid of cells.

Everything is computed from ``sharding.devices_indices_map(shape)``, so any sharding JAX has (and
any object with that method whose devices have ``id`` and ``platform``) works; a device without a
``process_index`` is read as one of process 0, as a single-process program's devices are.
The renderers (text, HTML, widget) only read this model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, groupby
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.cells import (
    HOLDERS_LISTED,
    RUNS_SHOWN,
    Cell,
    Device,
    holders_text,
    id_texts,
    joined_id_texts,
    layout_cells,
    mixed_radix,
)
from jaxdbg_widgets.sharding.specs import (
    NO_SEMANTICS,
    check_rank,
    checked_shape,
    dtype_info,
    indices_map,
    mesh_and_spec,
    shape_and_sharding,
    spec_entry_text,
    spec_semantics,
)

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
        entries = [spec_entry_text(entry) for entry in self.spec]
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
            keys = mixed_radix([columns[d] for d in outer], [self.grid[d] for d in outer], count)
            runs = _runs(range(count), keys)
            if runs is None:
                runs = _runs(sorted(range(count), key=keys.__getitem__), keys) or {}
            groups = [runs[key] for key in sorted(runs)]
        spots = mixed_radix([down, across], [n_rows, n_cols], count)
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
    shape = checked_shape(shape)
    check_rank(sharding, shape)
    with collector_paused():
        cells, grid, places = layout_cells(indices_map(sharding, shape), shape)
    mesh_axes, spec = mesh_and_spec(sharding)
    semantics = spec_semantics(sharding) if spec is not None else NO_SEMANTICS
    dtype_name, itemsize = dtype_info(dtype)
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


__all__ = [
    "HOLDERS_LISTED",
    "PROCESS_BELOW",
    "PROCESS_RIGHT",
    "RUNS_SHOWN",
    "Cell",
    "Device",
    "Facet",
    "FacetPlan",
    "ShardingLayout",
    "holders_text",
    "id_texts",
    "joined_id_texts",
    "process_edges",
    "shape_and_sharding",
    "sharding_layout",
]

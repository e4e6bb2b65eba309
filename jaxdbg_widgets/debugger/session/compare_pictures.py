"""Which shards a compare draws as pictures: when every answered shard's value is an array of
one shape, one picture per shard, or past ``PICTURES_SHOWN`` shards one per group of equal
values (differing groups first), all on one colour scale, at most ``PICTURES_SHOWN`` of them.

The choice needs only each value's shape and finite extent (:class:`Drawable`), and the
drawing is handed in, so the job debugger chooses in the notebook and draws on the engines
that hold the values, and no session imports a renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets.debugger.session.shard_compare import CompareRow, groups
from jaxdbg_widgets.pictures.extent import Extent, extent, scale_over
from jaxdbg_widgets.pictures.scale import Scale

PICTURES_SHOWN = 16
"""The most pictures one compare draws; the rest are counted ("12 more groups, 40 shards")."""


@dataclass(frozen=True)
class Drawn:
    """One drawn value: its PNG ``data:`` URI and what a screen reader says of it."""

    png: str
    label: str


Draw = Callable[[Sequence[int], Scale], Sequence[Drawn]]
"""Draws the values of the given rows (positions among the gathered shards) on one scale."""
DrawValues = Callable[[Sequence[Any], Scale], Sequence[Drawn]]
"""Draws values on one scale (:func:`jaxdbg_widgets.pictures.row.row_pictures`); handed to a
session by the code that serves it, so the model imports no renderer."""


@dataclass(frozen=True)
class Tile:
    """One picture: the rows (positions among the gathered shards) it stands for, the first
    of them drawn, and its PNG and screen-reader text (shape, dtype, min and max)."""

    positions: tuple[int, ...]
    png: str
    summary: str


@dataclass(frozen=True)
class ComparePictures:
    """A compare's pictures on one scale, and the groups and shards left out past the cap."""

    scale: Scale
    tiles: tuple[Tile, ...]
    hidden_groups: int = 0
    hidden_shards: int = 0


@dataclass(frozen=True)
class Drawable:
    """What choosing a compare's pictures needs of one value: its shape and finite extent."""

    shape: tuple[int, ...]
    extent: Extent

    def plain(self) -> dict[str, Any]:
        """As plain JSON, for an engine's compare reply."""
        e = self.extent
        return {"shape": list(self.shape), "low": e.low, "high": e.high, "bool": e.bool}

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> Drawable:
        """From :meth:`plain`'s JSON, as the notebook reads an engine's reply."""
        extent = Extent(plain["low"], plain["high"], bool(plain["bool"]))
        return cls(tuple(int(n) for n in plain["shape"]), extent)


def drawable(value: Any) -> Drawable | None:
    """``value``'s shape and extent when it is an array of numbers of rank 1 or more, else
    None (scalars, strings, typed PRNG keys, a value that cannot be read)."""
    if _undrawable(value) or not tuple(getattr(value, "shape", ())):
        return None
    try:
        return Drawable(tuple(value.shape), extent(value))
    except Exception:  # an unreadable value (a deleted buffer, an odd dtype) draws no row
        return None


def compare_pictures(
    rows: Sequence[CompareRow], values: Sequence[Any], draw_values: DrawValues
) -> ComparePictures | None:
    """The pictures of a compare whose answered ``rows`` all hold arrays of rank 1 or more and
    one shape (``values[n]`` is row ``n``'s value), or None: then the table says it all."""

    def draw(positions: Sequence[int], scale: Scale) -> Sequence[Drawn]:
        return draw_values([values[p] for p in positions], scale)

    answered = {r.index for r in rows if r.group is not None}
    drawables = [drawable(v) if n in answered else None for n, v in enumerate(values)]
    return chosen_pictures(rows, drawables, draw)


def chosen_pictures(
    rows: Sequence[CompareRow], drawables: Sequence[Drawable | None], draw: Draw
) -> ComparePictures | None:
    """The pictures of a compare known by each row's :class:`Drawable` (``drawables[n]`` for
    row ``n``), drawn by ``draw``; None unless every answered row holds one of one shape."""
    answered = [r for r in rows if r.group is not None]
    if not answered or any(r.error for r in answered):
        return None
    found = [drawables[r.index] for r in answered]
    if any(d is None for d in found) or len({d.shape for d in found if d}) != 1:
        return None
    chosen, hidden = _chosen(rows, answered)
    scale = scale_over([d.extent for d in found if d])
    try:
        drawn = draw([group[0].index for group in chosen], scale)
    except Exception:  # an unreadable value, or a process that could not draw, draws no row
        return None
    tiles = tuple(
        Tile(tuple(r.index for r in group), picture.png, picture.label)
        for group, picture in zip(chosen, drawn, strict=True)
    )
    return ComparePictures(scale, tiles, len(hidden), sum(len(g) for g in hidden))


def _chosen(
    rows: Sequence[CompareRow], answered: list[CompareRow]
) -> tuple[list[list[CompareRow]], list[list[CompareRow]]]:
    """The rows drawn, as groups of one or more, and the groups left out: every shard in mesh
    order when they fit, else the groups of equal values, differing ones first."""
    if len(answered) <= PICTURES_SHOWN:
        return [[r] for r in answered], []
    ranked = groups(rows)
    ordered = [g for g in ranked if g[0].differs] + [g for g in ranked if not g[0].differs]
    return ordered[:PICTURES_SHOWN], ordered[PICTURES_SHOWN:]


def _undrawable(value: Any) -> bool:
    """Whether ``value`` is no array of numbers (strings, objects, typed PRNG keys)."""
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind is None or kind not in "biufcV"

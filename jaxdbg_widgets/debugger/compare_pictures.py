"""Which shards a compare draws as pictures: when every answered shard's value is an array of
one shape, one picture per shard, or past ``PICTURES_SHOWN`` shards one per group of equal
values (differing groups first), all on one colour scale, at most ``PICTURES_SHOWN`` of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets.debugger.shard_compare import CompareRow, groups
from jaxdbg_widgets.pictures.row import row_pictures, shared_scale
from jaxdbg_widgets.pictures.scale import Scale

PICTURES_SHOWN = 16
"""The most pictures one compare draws; the rest are counted ("12 more groups, 40 shards")."""


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


def compare_pictures(rows: Sequence[CompareRow], values: Sequence[Any]) -> ComparePictures | None:
    """The pictures of a compare whose answered ``rows`` all hold arrays of rank 1 or more and
    one shape (``values[n]`` is row ``n``'s value), or None: then the table says it all."""
    answered = [r for r in rows if r.group is not None]
    if not answered or any(r.error for r in answered):
        return None
    arrays = [values[r.index] for r in answered]
    shapes = {tuple(getattr(a, "shape", ())) for a in arrays}
    if len(shapes) != 1 or not next(iter(shapes)) or any(_undrawable(a) for a in arrays):
        return None
    chosen, hidden = _chosen(rows, answered)
    try:
        scale = shared_scale(arrays)
        drawn = row_pictures([values[group[0].index] for group in chosen], scale)
    except Exception:  # an unreadable value (a deleted buffer, an odd dtype) draws no row
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

"""An array's finite extent, and one colour scale over several arrays known by their extents:
all a compare needs to choose its pictures, small enough to cross between processes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets.pictures.numeric import host_array, numeric
from jaxdbg_widgets.pictures.reduce import value_stats
from jaxdbg_widgets.pictures.scale import Scale, choose_scale


@dataclass(frozen=True)
class Extent:
    """An array's finite extremes (``None`` when it has no finite value) and whether it is
    bool: all a shared scale needs of it, small enough to cross between processes."""

    low: float | None
    high: float | None
    bool: bool


def extent(array: Any) -> Extent:
    """The finite minimum and maximum over every value of ``array``, and whether it is bool."""
    drawn = numeric(host_array(array))
    stats = value_stats(drawn.values)
    if stats.min is None:
        return Extent(None, None, drawn.kind == "bool")
    return Extent(float(stats.min), float(stats.max), drawn.kind == "bool")


def shared_scale(arrays: Sequence[Any]) -> Scale:
    """One scale over the finite values of all ``arrays``: diverging and centred at 0 when they
    have both signs, black and white when every array is bool."""
    return scale_over([extent(a) for a in arrays])


def scale_over(extents: Sequence[Extent]) -> Scale:
    """One scale over arrays known by their extents (from :func:`extent`, maybe on other
    processes), the same scale :func:`shared_scale` gives for the arrays themselves."""
    if not extents:
        raise ValueError("shared_scale needs at least one array")
    lows = [e.low for e in extents if e.low is not None]
    highs = [e.high for e in extents if e.high is not None]
    kind = "bool" if all(e.bool for e in extents) else "float"
    return choose_scale(min(lows, default=None), max(highs, default=None), kind=kind)

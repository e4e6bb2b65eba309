"""The value scale of a picture: which colour map, which values at its ends, and the palette
index of every value (``0 .. LEVELS - 1`` along the map, then NaN, +Inf and -Inf).

Only names and numbers live here; the colours themselves are ``colors.py``'s, so the model
needs no matplotlib.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

LEVELS = 253
NAN, POSINF, NEGINF = LEVELS, LEVELS + 1, LEVELS + 2
DIVERGING = "RdBu_r"
SEQUENTIAL = "viridis"
BOOLEAN = "gray"


@dataclass(frozen=True)
class Scale:
    """How values become colours: the map's name and the values at its two ends."""

    cmap: str
    vmin: float
    vmax: float
    diverging: bool

    def levels(self, values: np.ndarray) -> np.ndarray:
        """Palette indices (uint8) for float values, the specials in their own entries."""
        span = self.vmax - self.vmin
        safe = np.where(np.isfinite(values), values, self.vmin)
        if span == np.inf:  # ends further apart than float64 reaches
            scaled = fraction(safe, self.vmin, self.vmax) * (LEVELS - 1)
        elif span > 0:
            scaled = (safe - self.vmin) * ((LEVELS - 1) / span)
        else:
            scaled = np.full(values.shape, (LEVELS - 1) / 2)
        out = np.rint(np.clip(scaled, 0, LEVELS - 1)).astype(np.uint8)
        out[np.isnan(values)] = NAN
        out[values == np.inf] = POSINF
        out[values == -np.inf] = NEGINF
        return out


def fraction(values: Any, lo: float, hi: float) -> Any:
    """``(values - lo) / (hi - lo)``, also when ``hi - lo`` overflows float64 (ends near
    ±1e308): every term is then halved first, which is exact, so nothing overflows."""
    if math.isinf(hi - lo):
        values, lo, hi = np.divide(values, 2), lo / 2, hi / 2
    return (values - lo) / (hi - lo)


def choose_scale(
    lo: float | None,
    hi: float | None,
    *,
    kind: str,
    cmap: str | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
) -> Scale:
    """Default scale: a diverging map centred at 0 when the finite values have both signs,
    a sequential one otherwise, black and white for bool; ``cmap``/``vmin``/``vmax`` override."""
    lo = 0.0 if lo is None else float(lo)
    hi = 0.0 if hi is None else float(hi)
    if hi - lo <= 1e-9 * max(1.0, abs(lo), abs(hi)):
        hi = lo  # one value, up to rounding: drawn in the map's middle colour
    diverging = kind != "bool" and lo < 0 < hi
    if diverging and vmin is None and vmax is None and cmap is None:
        reach = max(-lo, hi)
        lo, hi = -reach, reach
    if kind == "bool":
        lo, hi = 0.0, 1.0
    name = cmap or (BOOLEAN if kind == "bool" else DIVERGING if diverging else SEQUENTIAL)
    return Scale(
        name, lo if vmin is None else float(vmin), hi if vmax is None else float(vmax), diverging
    )

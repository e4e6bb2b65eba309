"""Colours of a picture: matplotlib's colour maps and the colours of NaN, +Inf and -Inf.

The default maps come from the byte tables in ``maps.py``; matplotlib is imported only for a
map named by ``cmap`` that has no table.

A picture is a palette image: entries ``0 .. LEVELS - 1`` sample the colour map, and the last
three are NaN, +Inf and -Inf, each picked from a fixed list as the first colour far from every
colour of the map in use and from the other two, so no map hides a special value.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from jaxdbg_widgets.pictures.maps import TABLES
from jaxdbg_widgets.pictures.scale import LEVELS

# Tried in order for NaN, then +Inf, then -Inf; each takes the first one far enough away.
SPECIAL_CANDIDATES = (
    "#ff00ff",
    "#00ff00",
    "#00ffff",
    "#ff8000",
    "#000000",
    "#ffffff",
    "#ffff00",
    "#808080",
    "#ff0000",
    "#0000ff",
)
FAR = 90.0  # RGB distance a special colour keeps from the map and from each other


@lru_cache(maxsize=64)
def lut(name: str) -> tuple[tuple[int, int, int], ...]:
    """``LEVELS`` RGB colours sampled evenly from matplotlib's colour map ``name``."""
    table = TABLES.get(name)
    if table is not None:
        return tuple(tuple(table[i : i + 3]) for i in range(0, len(table), 3))
    import matplotlib

    try:
        cmap = matplotlib.colormaps[name]
    except KeyError:
        raise ValueError(f"unknown colour map {name!r}: pass a name from matplotlib") from None
    rgba = cmap(np.linspace(0.0, 1.0, LEVELS))
    return tuple(tuple(round(float(c) * 255) for c in row[:3]) for row in rgba)


@lru_cache(maxsize=64)
def special_colors(name: str) -> tuple[str, str, str]:
    """The NaN, +Inf and -Inf colours for colour map ``name``: none close to the map or to each
    other (the farthest candidate when none is far enough)."""
    used = np.array(lut(name), dtype=np.float64)
    chosen: list[str] = []
    for _ in range(3):
        taken = np.array([_rgb(c) for c in chosen], dtype=np.float64).reshape(-1, 3)
        avoid = np.concatenate([used, taken])
        distances = [
            float(np.min(np.linalg.norm(avoid - _rgb(c), axis=1)))
            for c in SPECIAL_CANDIDATES
            if c not in chosen
        ]
        free = [c for c in SPECIAL_CANDIDATES if c not in chosen]
        far = [c for c, d in zip(free, distances, strict=True) if d >= FAR]
        chosen.append(far[0] if far else free[int(np.argmax(distances))])
    return chosen[0], chosen[1], chosen[2]


def palette(name: str) -> bytes:
    """The PNG palette: the map's ``LEVELS`` colours then NaN, +Inf and -Inf, 3 bytes each."""
    colors = [*lut(name), *map(_rgb, special_colors(name))]
    return bytes(channel for color in colors for channel in color)


def gradient_stops(name: str, count: int = 9) -> list[str]:
    """``count`` evenly spaced colours of the map as ``#rrggbb``, for a CSS colour bar."""
    colors = lut(name)
    picks = np.linspace(0, LEVELS - 1, count).round().astype(int)
    return [_hex(colors[i]) for i in picks]


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)

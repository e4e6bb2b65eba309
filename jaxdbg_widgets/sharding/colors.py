"""Cell colours: one distinct colour per shard from a matplotlib colormap name or a callable.

Neighbouring cells are spread over the map with a stride coprime to the cell count, so no colour
repeats; colours a map cannot tell apart (a 20-colour map over more cells) are shifted in
lightness until every cell's colour is unique.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

ColorMap = str | Callable[[float], Any] | None

DEFAULT_MAP = "tab20b"
_LISTED_LIMIT = 20
_GOLDEN_TURN = 0.618033988749895


def cell_colors(count: int, color_map: ColorMap = None) -> list[str]:
    """``count`` distinct ``#RRGGBB`` colours, in cell order."""
    if count <= 0:
        return []
    if color_map is None:
        return list(_default_colors(count))
    return _mapped_colors(count, color_map)


@lru_cache(maxsize=16)
def _default_colors(count: int) -> tuple[str, ...]:
    """The default map's colours for ``count`` cells, worked out once per count."""
    if count > _LISTED_LIMIT:
        return tuple(_made_unique(_golden_colors(count)))
    return tuple(_mapped_colors(count, DEFAULT_MAP))


def _mapped_colors(count: int, color_map: str | Callable[[float], Any]) -> list[str]:
    """``count`` distinct colours sampled from ``color_map`` in spread order."""
    lookup = _resolve(color_map)
    points = [_sample_point(p, count) for p in _spread_order(count)]
    return _made_unique([_to_hex(c) for c in _looked_up(lookup, points)])


def text_color(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (WCAG contrast ratio)."""
    lum = relative_luminance(background)
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return "#000000" if on_black >= on_white else "#ffffff"


def text_colors(backgrounds: list[str]) -> list[str]:
    """:func:`text_color` of each ``#RRGGBB`` background, worked out for all of them at once
    (and kept for the last few lists of backgrounds, as the same grid is often drawn again)."""
    return list(_text_colors(tuple(backgrounds)))


@lru_cache(maxsize=16)
def _text_colors(backgrounds: tuple[str, ...]) -> tuple[str, ...]:
    if not backgrounds:
        return ()
    import numpy as np

    values = np.array([int(b[1:7], 16) for b in backgrounds])
    linear = np.array(_LINEAR)
    lum = (
        0.2126 * linear[(values >> 16) & 255]
        + 0.7152 * linear[(values >> 8) & 255]
        + 0.0722 * linear[values & 255]
    )
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return tuple(np.where(on_black >= on_white, "#000000", "#ffffff").tolist())


def relative_luminance(color: str) -> float:
    """WCAG 2 relative luminance of a ``#RRGGBB`` colour."""
    r, g, b = _rgb255(color)
    return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]


def _linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


_LINEAR = tuple(_linear(v) for v in range(256))


def _resolve(color_map: str | Callable[[float], Any]) -> Callable[[float], Any]:
    if isinstance(color_map, str):
        import matplotlib as mpl

        try:
            return mpl.colormaps[color_map]
        except KeyError:
            raise ValueError(f"unknown matplotlib colormap {color_map!r}") from None
    if callable(color_map):
        return color_map
    raise TypeError(
        f"color_map must be a colormap name or a callable, got {type(color_map).__name__}"
    )


def _looked_up(lookup: Callable[[float], Any], points: list[float]) -> list[Any]:
    """Colours at ``points``; a matplotlib Colormap is asked once for all of them."""
    import matplotlib.colors as mcolors

    if isinstance(lookup, mcolors.Colormap):
        import numpy as np

        return list(lookup(np.asarray(points)))
    return [lookup(point) for point in points]


def _spread_order(count: int) -> list[int]:
    """Visit all ``count`` map positions with a stride near half the range, coprime to it."""
    stride = count // 2 + 1
    while math.gcd(stride, count) != 1:
        stride += 1
    return [(i * stride) % count for i in range(count)]


def _sample_point(position: int, count: int) -> float:
    return position / (count - 1) if count > 1 else 0.0


def _golden_colors(count: int) -> list[str]:
    """Hues a golden-ratio turn apart, cycling lightness and saturation: distinct for any count."""
    import numpy as np

    i = np.arange(count)
    hue = (i * _GOLDEN_TURN) % 1.0
    light = np.array([0.42, 0.58, 0.5, 0.66, 0.36])[i % 5]
    sat = np.array([0.7, 0.55, 0.85])[i % 3]
    high = np.where(light <= 0.5, light * (1 + sat), light + sat - light * sat)
    low = 2 * light - high
    channels = [_hue_channel(low, high, hue + shift) for shift in (1 / 3, 0.0, -1 / 3)]
    rgb = np.rint(np.clip(np.stack(channels, axis=1), 0, 1) * 255).astype(np.uint8)
    return _hex_strings(rgb)


def _hex_strings(rgb: Any) -> list[str]:
    """``#RRGGBB`` for each row of an ``(n, 3)`` uint8 array, spelled out with array indexing."""
    import numpy as np

    digits = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)
    chars = np.full((len(rgb), 7), ord("#"), dtype=np.uint8)
    chars[:, 1::2] = digits[rgb >> 4]
    chars[:, 2::2] = digits[rgb & 15]
    return chars.view("S7").ravel().astype(str).tolist()


def _hue_channel(low: Any, high: Any, hue: Any) -> Any:
    """One RGB channel of HLS -> RGB, element-wise over numpy arrays (as ``colorsys`` does)."""
    import numpy as np

    h = hue % 1.0
    return np.select(
        [h < 1 / 6, h < 0.5, h < 2 / 3],
        [low + (high - low) * h * 6, high, low + (high - low) * (2 / 3 - h) * 6],
        low,
    )


def _to_hex(color: Any) -> str:
    if isinstance(color, str):
        import matplotlib.colors as mcolors

        try:
            color = mcolors.to_rgb(color)
        except ValueError:
            raise ValueError(f"color map returned an unknown colour {color!r}") from None
    try:
        r, g, b = (float(c) for c in tuple(color)[:3])
    except (TypeError, ValueError):
        raise TypeError(f"color map must return RGB(A) floats or a colour, got {color!r}") from None
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02X}" for c in (r, g, b))


def _rgb255(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _made_unique(colors: list[str]) -> list[str]:
    """Keep first uses; turn the k-th repeat of a colour into its k-th variant, then nudge to free."""
    if len(set(colors)) == len(colors):
        return colors
    first_repeat = _first_repeat(colors)
    result = colors[:first_repeat]
    seen = set(result)
    repeats = dict.fromkeys(result, 1)
    for color in colors[first_repeat:]:
        k = repeats.get(color, 0)
        repeats[color] = k + 1
        candidate = _variant(color, k) if k else color
        value = int(candidate[1:], 16)
        while candidate in seen:
            value = (value + 0x010305) % 0x1000000
            candidate = f"#{value:06X}"
        seen.add(candidate)
        result.append(candidate)
    return result


def _first_repeat(colors: list[str]) -> int:
    """The index of the first colour that an earlier one already has."""
    seen: set[str] = set()
    for i, color in enumerate(colors):
        if color in seen:
            return i
        seen.add(color)
    return len(colors)


def _variant(color: str, k: int) -> str:
    """A colour of the same family: lightness alternates lighter/darker, hue drifts every 8."""
    r, g, b = (c / 255 for c in _rgb255(color))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    offset = 0.09 * ((k % 8 + 1) // 2) * (1 if k % 2 else -1)
    light = 0.12 + (light + offset - 0.12) % 0.8
    hue = (hue + 0.021 * (k // 8)) % 1.0
    return _to_hex(colorsys.hls_to_rgb(hue, light, max(sat, 0.35 if k >= 8 else sat)))

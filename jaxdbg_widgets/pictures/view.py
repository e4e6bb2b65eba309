"""The view model both the static HTML and the widget draw: plain JSON from a picture model.

Pixels become palette PNGs in ``data:`` URIs; numbers become short text; nothing random goes
in, so the same picture always gives the same view (and the same saved notebook).
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np

from jaxdbg_widgets.pictures.colors import gradient_stops, palette, special_colors
from jaxdbg_widgets.pictures.model import Panel, Picture, PictureSet
from jaxdbg_widgets.pictures.png import data_uri, palette_png
from jaxdbg_widgets.pictures.scale import NAN
from jaxdbg_widgets.pictures.schema import (
    HistogramView,
    PanelView,
    PicturesView,
    PictureView,
    ShardView,
    SliderView,
    SpecialView,
)

INLINE_VALUES = 4096  # an unreduced panel up to this many cells carries every exact value
MARKS = 32  # a panel with at most this many special cells rings each of them


def pictures_view(pictures: PictureSet) -> PicturesView:
    """The view of every picture of one ``show`` call."""
    return {
        "pictures": [picture_view(p) for p in pictures.pictures],
        "skipped": list(pictures.skipped),
    }


def picture_view(picture: Picture) -> PictureView:
    """The JSON one picture draws from."""
    scale = picture.scale
    boolean = picture.kind == "bool"
    return {
        "path": picture.path,
        "title": title(picture),
        "label": aria_label(picture),
        "layout": picture.layout,
        "shape": list(picture.shape),
        "dtype": picture.dtype,
        "summary": summary(picture),
        "scalar": picture.value_text(()) if picture.layout == "scalar" else "",
        "grid": picture.grid,
        "factor": picture.factor,
        "panels": [_panel_view(picture, panel) for panel in picture.panels]
        if picture.layout != "scalar"
        else [],
        "hidden": picture.panel_count - len(picture.panels) if picture.leading == "facets" else 0,
        "sliders": _sliders(picture),
        "scale": {
            "cmap": scale.cmap,
            "vmin": scale.vmin,
            "vmax": scale.vmax,
            "low": "False" if boolean else number_text(scale.vmin),
            "high": "True" if boolean else number_text(scale.vmax),
            "stops": gradient_stops(scale.cmap),
            "diverging": scale.diverging,
        },
        "specials": _specials(picture),
        "histogram": _histogram(picture),
        "shards": [
            _shard_view(picture, box.bounds, box.label, box.devices, box.platform)
            for box in picture.shards
        ],
        "spec": picture.spec or "",
        "line": _line(picture),
    }


def _histogram(picture: Picture) -> HistogramView:
    """The histogram's counts and ends; none for bool, whose summary already counts True."""
    histogram = picture.histogram
    if picture.kind == "bool" or not histogram.edges:
        return {"counts": [], "low": "", "high": "", "step": histogram.step}
    return {
        "counts": list(histogram.counts),
        "low": number_text(histogram.edges[0]),
        "high": number_text(histogram.edges[-1]),
        "step": histogram.step,
    }


def _specials(picture: Picture) -> list[SpecialView]:
    """NaN, +Inf and -Inf with their colours and counts: for floats only, as bool and integer
    arrays cannot hold them."""
    if picture.kind != "float":
        return []
    stats = picture.stats
    names = ("NaN", "+Inf", "-Inf")
    counts = (stats.nan, stats.posinf, stats.neginf)
    colors = special_colors(picture.scale.cmap)
    return [
        SpecialView(name=n, color=c, count=k) for n, c, k in zip(names, colors, counts, strict=True)
    ]


def title(picture: Picture) -> str:
    """``path: dtype[shape]``, e.g. ``['w']: float32[1000, 1000]``."""
    shape = ", ".join(map(str, picture.shape))
    head = f"{picture.path}: " if picture.path else ""
    return f"{head}{picture.dtype}[{shape}]"


def aria_label(picture: Picture) -> str:
    """What a screen reader says: shape, dtype, min and max."""
    lo, hi = picture.stats.min, picture.stats.max
    extremes = "no finite values" if lo is None else f"min {number_text(lo)}, max {number_text(hi)}"
    return f"picture of {title(picture)}, {extremes}"


def summary(picture: Picture) -> list[str]:
    """The lines under the title: extremes, special counts, reduction, part and sharding."""
    stats = picture.stats
    lines = []
    if stats.min is None:
        lines.append(f"{stats.size} values, none finite" if stats.size else "empty")
    elif picture.kind == "bool":
        true = round(stats.mean * stats.size) if stats.mean is not None else 0
        lines.append(f"True {true} of {stats.size}")
    else:
        lines.append(
            f"min {number_text(stats.min)} · max {number_text(stats.max)} · "
            f"mean {number_text(stats.mean)}"
        )
    specials = [(stats.nan, "NaN"), (stats.posinf, "+Inf"), (stats.neginf, "-Inf")]
    if any(count for count, _ in specials):
        lines.append(" · ".join(f"{name} {count}" for count, name in specials))
    if picture.reduced:
        down, across = picture.factor
        lines.append(
            f"reduced {down}×{across}: each cell is a block's mean; "
            "a block holding NaN or ±Inf shows it"
        )
    if picture.part is not None:
        lines.append(f"complex values drawn as {picture.part}")
    if picture.shards:
        devices = len({d for box in picture.shards for d in box.devices})
        lines.append(f"sharded {picture.spec or ''} over {devices} devices".replace("  ", " "))
    hidden = picture.panel_count - len(picture.panels)
    if picture.leading == "facets" and hidden > 0:
        lines.append(f"first {len(picture.panels)} of {picture.panel_count} slices shown")
    return lines


def number_text(value: float | int | None) -> str:
    """A number in at most 4 significant digits (integers whole)."""
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value.is_integer() and abs(value) < 1e6:
        return str(int(value))
    return f"{value:.4g}"


def _panel_view(picture: Picture, panel: Panel) -> PanelView:
    cells = panel.cells
    indices = picture.scale.levels(cells)
    png = palette_png(indices, palette(picture.scale.cmap))
    return {
        "title": panel.title,
        "index": list(panel.index),
        "png": data_uri(png),
        "width": int(cells.shape[1]),
        "height": int(cells.shape[0]),
        "shards": [i for i, box in enumerate(picture.shards) if box.holds(panel.index)],
        "marks": _marks(indices),
        "values": _inline_values(picture, panel),
    }


def _marks(indices: np.ndarray) -> list[tuple[int, int, int]]:
    """``[row, col, special]`` of each NaN/+Inf/-Inf cell when there are at most ``MARKS``;
    more than that show as areas of their own colour and need no rings."""
    rows, cols = np.nonzero(indices >= NAN)
    if not 0 < len(rows) <= MARKS:
        return []
    kinds = indices[rows, cols] - NAN
    return [(int(r), int(c), int(k)) for r, c, k in zip(rows, cols, kinds, strict=True)]


def _inline_values(picture: Picture, panel: Panel) -> list[str] | None:
    """Every cell's exact value, row-major, for a small unreduced panel; else None (fetched)."""
    rows, cols = picture.grid
    if picture.reduced or rows * cols > INLINE_VALUES or picture.source is None:
        return None
    source = picture.source.reshape(1, -1) if picture.layout == "strip" else picture.source
    block = source[panel.index] if panel.index else source
    return [str(block[r, c]) for r, c in product(range(rows), range(cols))]


def _sliders(picture: Picture) -> list[SliderView]:
    if picture.leading != "sliders" or not picture.lead_shape:
        return []
    index = picture.panels[0].index
    return [SliderView(dim=d, size=n, value=index[d]) for d, n in enumerate(picture.lead_shape)]


def _shard_view(
    picture: Picture,
    bounds: tuple[tuple[int, int], ...],
    label: str,
    devices: tuple[int, ...],
    platform: str,
) -> ShardView:
    rows, cols = ((0, 1), bounds[0]) if picture.layout == "strip" else (bounds[-2], bounds[-1])
    return {
        "rows": rows,
        "cols": cols,
        "label": label,
        "devices": list(devices),
        "platform": platform,
    }


def _line(picture: Picture) -> list[float | None] | None:
    """The strip's reduced values as line points, a gap (None) at NaN or ±Inf."""
    if not picture.line:
        return None
    points = picture.panels[0].cells.reshape(-1)
    return [float(v) if math.isfinite(v) else None for v in points.tolist()]

"""Several arrays drawn on one colour scale, so one colour means one value in every picture:
the row of small pictures a shard session's ``compare`` shows, one per shard or group.

Each picture is the array's first 2-D slice (a strip for rank 1), reduced to about
``ROW_CELLS`` cells, as a palette PNG ``data:`` URI in ``ROW_LEVELS`` steps of the colour map
(a full 253-colour palette would be most of a small picture's bytes, and a compare of 256
shards must still fit the debugger's byte budget); NaN and ±Inf keep their own colours. The
scale (:mod:`.extent`) covers every finite value of every array, not only of the slices drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxdbg_widgets.pictures.colors import palette
from jaxdbg_widgets.pictures.numeric import host_array, numeric
from jaxdbg_widgets.pictures.png import data_uri, palette_png
from jaxdbg_widgets.pictures.reduce import block_reduce, reduction_factors, value_stats
from jaxdbg_widgets.pictures.scale import LEVELS, NAN, NEGINF, POSINF, Scale
from jaxdbg_widgets.pictures.view import number_text

ROW_CELLS = 256  # 16 x 16 for a square array
ROW_SIDE = 64  # longest side of a reduced picture, so a long vector stays one thin strip
ROW_LEVELS = 64  # colour map steps of a row picture, then NaN, +Inf and -Inf


@dataclass(frozen=True)
class RowPicture:
    """One array of the row: its PNG on the shared scale and what a screen reader says."""

    png: str
    label: str


def row_pictures(arrays: Sequence[Any], scale: Scale) -> list[RowPicture]:
    """Each array of rank 1 or more drawn on ``scale`` (the same value, the same colour)."""
    colours = _row_palette(scale.cmap)
    pictures = []
    for array in arrays:
        drawn = numeric(host_array(array))
        values = drawn.values
        if values.ndim == 0:
            raise ValueError("row_pictures draws arrays of rank 1 or more")
        panel = values.reshape(1, -1) if values.ndim == 1 else values[(0,) * (values.ndim - 2)]
        factor = reduction_factors(
            *panel.shape, budget=ROW_CELLS, max_rows=ROW_SIDE, max_cols=ROW_SIDE
        )
        cells = block_reduce(panel, *factor)
        png = data_uri(palette_png(_row_levels(scale.levels(cells)), colours))
        pictures.append(RowPicture(png, _label(drawn.dtype, values)))
    return pictures


def _row_levels(levels: np.ndarray) -> np.ndarray:
    """Full-scale palette indices in ``ROW_LEVELS`` steps, the special values after them."""
    coarse = (levels.astype(np.uint16) * ROW_LEVELS // LEVELS).astype(np.uint8)
    return np.where(levels >= NAN, levels - NAN + ROW_LEVELS, coarse).astype(np.uint8)


def _row_palette(cmap: str) -> bytes:
    """``ROW_LEVELS`` colours of the map, each the middle of its step, then the specials."""
    full = palette(cmap)
    middles = [(2 * step + 1) * LEVELS // (2 * ROW_LEVELS) for step in range(ROW_LEVELS)]
    picks = [*middles, NAN, POSINF, NEGINF]
    return b"".join(full[3 * i : 3 * i + 3] for i in picks)


def _label(dtype: str, values: np.ndarray) -> str:
    """``float32[4, 4], min 0, max 1``: shape, dtype and the finite extremes."""
    stats = value_stats(values)
    head = f"{dtype}[{', '.join(map(str, values.shape))}]"
    if stats.min is None:
        return f"{head}, no finite values"
    return f"{head}, min {number_text(stats.min)}, max {number_text(stats.max)}"

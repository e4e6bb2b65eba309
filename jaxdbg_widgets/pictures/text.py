"""The text renderer: each picture's title and summary, and a small block-character sketch of
its first panel for terminals, where NaN is ``N``, +Inf ``+`` and -Inf ``-``."""

from __future__ import annotations

import numpy as np

from jaxdbg_widgets.pictures.model import Picture, PictureSet
from jaxdbg_widgets.pictures.reduce import block_reduce, reduction_factors
from jaxdbg_widgets.pictures.scale import fraction
from jaxdbg_widgets.pictures.view import summary, title

SHADES = " ░▒▓█"
SKETCH_ROWS, SKETCH_COLS = 12, 48


def render_text(pictures: PictureSet) -> str:
    """Every picture as lines of text; leaves that were not drawn are named at the end."""
    blocks = [picture_text(p) for p in pictures.pictures]
    if pictures.skipped:
        blocks.append("not drawn: " + ", ".join(pictures.skipped))
    return "\n\n".join(blocks) if blocks else "nothing to draw"


def picture_text(picture: Picture) -> str:
    """One picture: its title, summary lines, then its value (0-D) or a sketch."""
    lines = [title(picture), *("  " + line for line in summary(picture))]
    if picture.layout == "scalar":
        lines.append("  " + picture.value_text(()))
    elif picture.panels and picture.panels[0].cells.size:
        if picture.panels[0].title:
            lines.append("  " + picture.panels[0].title)
        lines += ["  " + row for row in sketch(picture)]
    return "\n".join(lines)


def sketch(picture: Picture) -> list[str]:
    """The first panel, reduced again to at most ``SKETCH_ROWS`` by ``SKETCH_COLS`` characters,
    each shaded by where its value falls on the picture's scale."""
    cells = picture.panels[0].cells
    down, across = reduction_factors(
        *cells.shape,
        budget=SKETCH_ROWS * SKETCH_COLS,
        max_rows=SKETCH_ROWS,
        max_cols=SKETCH_COLS,
    )
    small = block_reduce(cells, down, across)
    scale = picture.scale
    span = scale.vmax - scale.vmin
    with np.errstate(invalid="ignore"):
        level = fraction(small, scale.vmin, scale.vmax) if span > 0 else np.full(small.shape, 0.5)
    shade = np.rint(np.clip(np.nan_to_num(level), 0, 1) * (len(SHADES) - 1)).astype(int)
    rows = []
    for values, shades in zip(small, shade, strict=True):
        chars = [
            "N" if np.isnan(v) else "+" if v == np.inf else "-" if v == -np.inf else SHADES[s]
            for v, s in zip(values, shades, strict=True)
        ]
        rows.append("".join(chars))
    return rows

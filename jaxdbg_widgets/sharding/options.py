"""The display options every sharding renderer takes, with ``jax.debug.visualize_sharding``'s meaning."""

from __future__ import annotations

from dataclasses import dataclass

from jaxdbg_widgets.sharding.colors import ColorMap, cell_colors
from jaxdbg_widgets.sharding.layout import Cell, Facet, ShardingLayout

HEIGHT_TO_WIDTH = 2.5
MAX_SCALE = 100.0
MAX_WIDTH = 10_000
FACET_LINES = 4
"""Above rank 2, a facet is at most this many lines tall per row of shards it holds."""


@dataclass(frozen=True)
class RenderOptions:
    """``scale``/``min_width``/``max_width`` size cells in characters as JAX does; ``rows``/``cols``
    pick the dimensions drawn down and across for rank 3 and above."""

    use_color: bool = True
    scale: float = 1.0
    min_width: int = 9
    max_width: int = 80
    color_map: ColorMap = None
    rows: int | None = None
    cols: int | None = None

    def __post_init__(self) -> None:
        """Reject sizes that no diagram can use, before any drawing starts."""
        if not isinstance(self.scale, int | float) or not 0 < self.scale <= MAX_SCALE:
            raise ValueError(
                f"scale must be a number in (0, {MAX_SCALE}] (cells are 10 * scale lines tall),"
                f" got {self.scale!r}"
            )
        if not isinstance(self.min_width, int) or not 1 <= self.min_width <= MAX_WIDTH:
            raise ValueError(
                f"min_width must be an int from 1 to {MAX_WIDTH}, got {self.min_width!r}"
            )
        if not isinstance(self.max_width, int) or not self.min_width <= self.max_width <= MAX_WIDTH:
            raise ValueError(
                f"max_width must be an int from min_width ({self.min_width}) to {MAX_WIDTH},"
                f" got {self.max_width!r}"
            )

    def colors(self, layout: ShardingLayout) -> list[str] | None:
        """One background colour per cell of ``layout`` (in its order), or None without colour."""
        return cell_colors(len(layout.cells), self.color_map) if self.use_color else None


def cell_size(
    layout: ShardingLayout, facet: Facet, cell: Cell, options: RenderOptions
) -> tuple[int, int | None]:
    """A cell's (width in characters, height in lines) by JAX's rules; height is None in 1-D rows.

    A height under one line is raised to one, as the label line is drawn anyway.
    """
    return shard_size(layout, facet, cell.shard_shape, options)


def shard_size(
    layout: ShardingLayout, facet: Facet, shard_shape: tuple[int, ...], options: RenderOptions
) -> tuple[int, int | None]:
    """:func:`cell_size` of any cell whose shard has ``shard_shape`` (the size depends on nothing
    else), so a grid works it out once per distinct shard shape.

    Up to rank 2 the whole array is ``10 * scale`` lines tall, as in JAX. Above it each facet is
    sized by its content: at most :data:`FACET_LINES` lines per row of shards, so a slab held
    by one shard is a small box, not a full-height diagram.
    """
    base_height = int(10 * options.scale)
    if len(layout.shape) > 2:
        base_height = min(base_height, FACET_LINES * max(facet.rows, 1))
    if facet.row_dim is None:
        length = layout.shape[facet.col_dim] if facet.col_dim is not None else 1
        extent = shard_shape[facet.col_dim] if facet.col_dim is not None else 1
        base_width = int(base_height * _ratio(1, length))
        width = int(_ratio(extent, length, facet.cols) * base_width * HEIGHT_TO_WIDTH)
        return _clamped(width, options), None
    n_rows, n_cols = layout.shape[facet.row_dim], layout.shape[facet.col_dim]
    base_width = int(base_height * _ratio(n_cols, n_rows))
    width = int(
        _ratio(shard_shape[facet.col_dim], n_cols, facet.cols) * base_width * HEIGHT_TO_WIDTH
    )
    height = int(_ratio(shard_shape[facet.row_dim], n_rows, facet.rows) * base_height)
    return _clamped(width, options), max(height, 1)


def cell_text(layout: ShardingLayout, cell: Cell) -> str:
    """The label drawn in a cell; the holding processes are added when there are several."""
    if len(layout.process_indices) <= 1:
        return cell.label
    return f"{cell.label} p" + ",".join(map(str, cell.process_indices))


def _ratio(part: int, whole: int, chunks: int = 1) -> float:
    return part / whole if whole else 1 / chunks


def _clamped(width: int, options: RenderOptions) -> int:
    return min(max(width, options.min_width), options.max_width)

"""The text renderer: ``rich`` tables with the cells and arrangement of ``jax.debug.visualize_sharding``.

Ranks 1 and 2 draw one table like JAX's (without its repeated colours); rank 0 draws one cell and
higher ranks draw one titled table per slab of the leading dimensions.
"""

from __future__ import annotations

import io
from typing import Any

from jaxdbg_widgets.sharding.colors import text_color
from jaxdbg_widgets.sharding.layout import Facet, ShardingLayout
from jaxdbg_widgets.sharding.options import RenderOptions, cell_size, cell_text

_WIDE_CONSOLE = 100_000


def text_renderable(layout: ShardingLayout, options: RenderOptions) -> Any:
    """A ``rich`` renderable of the layout: one table per facet, titled above rank 2."""
    import rich.console
    import rich.text

    colors = options.colors(layout)
    color_of = {cell.bounds: c for cell, c in zip(layout.cells, colors or [], strict=False)}
    parts: list[Any] = []
    for facet in layout.facets(options.rows, options.cols):
        if facet.title:
            parts.append(rich.text.Text(facet.title, style="bold"))
        parts.append(_facet_table(layout, facet, options, color_of))
    return rich.console.Group(*parts)


def render_text(layout: ShardingLayout, options: RenderOptions) -> str:
    """The layout as a string; with ``use_color`` it carries 24-bit ANSI colour codes."""
    import rich.console

    buffer = io.StringIO()
    console = rich.console.Console(
        file=buffer,
        width=_WIDE_CONSOLE,
        color_system="truecolor" if options.use_color else None,
        force_terminal=options.use_color,
        force_jupyter=False,
        highlight=False,
    )
    console.print(text_renderable(layout, options))
    return buffer.getvalue()


def print_text(layout: ShardingLayout, options: RenderOptions) -> None:
    """Print to the terminal, with colour only when it has colour (as JAX does).

    The console is made wide enough never to squeeze a column, so labels are never cut.
    """
    import rich.console

    console = rich.console.Console()
    if console.color_system is None and options.use_color:
        options = RenderOptions(**{**options.__dict__, "use_color": False})
    console.width = _WIDE_CONSOLE
    console.print(text_renderable(layout, options), end="\n\n", crop=False)


def _facet_table(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    color_of: dict[tuple[tuple[int, int], ...], str],
) -> Any:
    import rich.align
    import rich.box
    import rich.padding
    import rich.style
    import rich.table

    plain = not options.use_color
    table = rich.table.Table(
        show_header=False,
        show_lines=plain,
        padding=0,
        highlight=plain,
        pad_edge=False,
        box=rich.box.SQUARE if plain else None,
    )
    by_position = {(r, c): cell for r, c, cell in facet.cells}
    for r in range(facet.rows):
        row = []
        for c in range(facet.cols):
            cell = by_position.get((r, c))
            if cell is None:
                row.append("")
                continue
            label = cell_text(layout, cell)
            width, height = cell_size(layout, facet, cell, options)
            pad = _padding(len(label), width, 1 if height is None else height, plain)
            background = color_of.get(cell.bounds)
            style = rich.style.Style(
                bgcolor=background, color=text_color(background) if background else None
            )
            align = rich.align.Align(label, "center", vertical="middle")
            row.append(rich.padding.Padding(align, pad, style=style))
        table.add_row(*row)
    return table


def _padding(label_length: int, width: int, height: int, plain: bool) -> tuple[int, int, int, int]:
    """(top, right, bottom, left) padding that centres the label in a ``width`` x ``height`` box."""
    left, extra_x = divmod(width - label_length - 2, 2)
    top, extra_y = divmod(height - 2, 2)
    right, bottom = left + extra_x, top + extra_y
    grow = 0 if plain else 1
    return tuple(max(v + grow, 0) for v in (top, right, bottom, left))

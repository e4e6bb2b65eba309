"""The text renderer: the cells and arrangement of ``jax.debug.visualize_sharding``, drawn directly.

Ranks 1 and 2 draw one table like JAX's (without its repeated colours); rank 0 draws one cell and
higher ranks draw one titled table per slab of the leading dimensions. The characters are those
``rich`` draws for JAX's table (a square box without colour, 24-bit ANSI backgrounds with it),
written here in one pass so the cost grows only with the number of cells.
"""

from __future__ import annotations

from itertools import chain

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.colors import text_colors
from jaxdbg_widgets.sharding.layout import (
    PROCESS_BELOW,
    PROCESS_RIGHT,
    Facet,
    ShardingLayout,
    process_edges,
)
from jaxdbg_widgets.sharding.options import RenderOptions, cell_size, cell_text
from jaxdbg_widgets.sharding.view import summary_parts

_RESET = "\x1b[0m"


def render_text(layout: ShardingLayout, options: RenderOptions, *, header: bool = False) -> str:
    """The layout as a string; with ``use_color`` it carries 24-bit ANSI colour codes.

    The diagram alone is what ``jax.debug.visualize_sharding`` draws; ``header`` puts the
    :func:`header_text` line above it (JAX prints none).
    """
    with collector_paused():
        text = _render_text(layout, options)
    return f"{header_text(layout)}\n{text}" if header else text


def header_text(layout: ShardingLayout) -> str:
    """The one-line header every view shows: sharding kind, shape, mesh with its axis types,
    spec with its unreduced and reduced axes, devices, shards and replication."""
    return " · ".join([layout.kind, *summary_parts(layout)])


def _render_text(layout: ShardingLayout, options: RenderOptions) -> str:
    colors = options.colors(layout)
    styles = _ansi_styles(colors) if colors is not None else None
    number = {cell.bounds: i for i, cell in enumerate(layout.cells)}
    parts: list[str] = []
    for facet in layout.facets(options.rows, options.cols):
        if facet.title:
            parts.append(f"\x1b[1m{facet.title}{_RESET}\n" if styles else facet.title + "\n")
        parts.append(_facet_text(layout, facet, options, styles, number))
    return "".join(parts)


def print_text(layout: ShardingLayout, options: RenderOptions) -> None:
    """Print to the terminal, with colour only when it has colour (as JAX does).

    The colours are checked even where the terminal cannot show them, so a bad ``color_map``
    fails here as it does in every other renderer. Lines are never wrapped or cut, and the
    output ends where the diagram does, with one newline, as JAX's does.
    """
    import rich.console
    import rich.text

    options.colors(layout)
    console = rich.console.Console()
    if console.color_system is None and options.use_color:
        options = RenderOptions(**{**options.__dict__, "use_color": False})
    text = render_text(layout, options)
    console.width = max(console.width, *(len(line) for line in text.splitlines()))
    console.print(rich.text.Text.from_ansi(text.removesuffix("\n")), crop=False, soft_wrap=True)


def _ansi_styles(colors: list[str]) -> list[str]:
    """The SGR escape that sets each background colour with its contrasting text colour."""

    def rgb(color: str) -> str:
        return f"{int(color[1:3], 16)};{int(color[3:5], 16)};{int(color[5:7], 16)}"

    return [
        f"\x1b[38;2;{rgb(fg)};48;2;{rgb(bg)}m"
        for bg, fg in zip(colors, text_colors(colors), strict=True)
    ]


def _facet_text(
    layout: ShardingLayout,
    facet: Facet,
    options: RenderOptions,
    styles: list[str] | None,
    number: dict[tuple[tuple[int, int], ...], int],
) -> str:
    """One table: every column as wide as its widest cell, every row as tall as its tallest.

    A cell's padding depends only on its label's length and its shard's shape, so it is worked
    out once per distinct pair.
    """
    grow = 0 if styles is None else 1
    several = len(layout.process_indices) > 1
    pads: dict[tuple[int, tuple[int, ...]], tuple[int, int, int, int]] = {}
    col_widths = [0] * facet.cols
    row_heights = [1] * facet.rows
    placed = []
    for r, c, cell in facet.cells:
        label = cell_text(layout, cell) if several else cell.label
        key = (len(label), cell.shard_shape)
        pad = pads.get(key)
        if pad is None:
            width, height = cell_size(layout, facet, cell, options)
            left, extra_x = divmod(width - len(label) - 2, 2)
            top, extra_y = divmod((1 if height is None else height) - 2, 2)
            pad = pads[key] = tuple(
                max(v + grow, 0) for v in (top, left + extra_x, top + extra_y, left)
            )
        style = styles[number[cell.bounds]] if styles is not None else ""
        placed.append((r, c, label, pad, style))
        own = pad[3] + len(label) + pad[1]
        if own > col_widths[c]:
            col_widths[c] = own
        if pad[0] + 1 + pad[2] > row_heights[r]:
            row_heights[r] = pad[0] + 1 + pad[2]
    col_widths = [w or 1 for w in col_widths]
    grid = [
        [[" " * col_widths[c]] * row_heights[r] for c in range(facet.cols)]
        for r in range(facet.rows)
    ]
    for r, c, label, pad, style in placed:
        grid[r][c] = _cell_lines(label, pad, style, col_widths[c], row_heights[r])
    if styles is not None:
        return "".join("".join(line) + "\n" for row in grid for line in zip(*row, strict=True))
    edges = (
        process_edges((r, c, cell.process_indices) for r, c, cell in facet.cells) if several else {}
    )
    return _boxed(grid, col_widths, edges)


def _cell_lines(
    label: str, pad: tuple[int, int, int, int], style: str, width: int, height: int
) -> list[str]:
    """A cell's lines: its padding box fills the column, the label centred in it, in its style;
    lines below the box (when another cell makes the row taller) are left unstyled."""
    top, right, bottom, left = pad
    excess = max(width - left - right - len(label), 0)
    before, after = left + excess // 2, right + excess - excess // 2
    if style:
        pieces = (" " * left, " " * (excess // 2), label, " " * (excess - excess // 2), " " * right)
        middle = "".join(f"{style}{text}{_RESET}" for text in pieces if text)
        blank = f"{style}{' ' * width}{_RESET}"
    else:
        middle = f"{' ' * before}{label}{' ' * after}"
        blank = " " * width
    lines = [blank] * top
    lines.append(middle)
    lines.extend([blank] * bottom)
    lines.extend([" " * width] * (height - len(lines)))
    return lines


def _boxed(
    grid: list[list[list[str]]], col_widths: list[int], edges: dict[tuple[int, int], int]
) -> str:
    """The rows in a square box with a rule between rows, as JAX's plain table is drawn; the
    lines between cells of different processes (``edges``, see
    :func:`~jaxdbg_widgets.sharding.layout.process_edges`) are heavy."""

    def rule(left: str, cross: str, right: str) -> str:
        return left + cross.join("─" * w for w in col_widths) + right + "\n"

    if not edges:
        rows = [
            "".join("│" + "│".join(line) + "│\n" for line in zip(*row, strict=True)) for row in grid
        ]
        return rule("┌", "┬", "┐") + rule("├", "┼", "┤").join(rows) + rule("└", "┴", "┘")
    n_rows, n_cols = len(grid), len(col_widths)

    def wall(r: int, c: int) -> bool:  # the line right of position (r, c) is heavy
        return r < n_rows and c < n_cols - 1 and bool(edges.get((r, c), 0) & PROCESS_RIGHT)

    def floor(r: int, c: int) -> bool:  # the line below position (r, c) is heavy
        return c < n_cols and bool(edges.get((r, c), 0) & PROCESS_BELOW)

    def between(r: int) -> str:  # the rule between rows r and r + 1
        parts = ["┝" if floor(r, 0) else "├"]
        for c, width in enumerate(col_widths):
            parts.append(("━" if floor(r, c) else "─") * width)
            if c < n_cols - 1:
                sides = (wall(r, c), wall(r + 1, c), floor(r, c), floor(r, c + 1))
                parts.append(_CROSSES[sides])
        return "".join(parts) + ("┥" if floor(r, n_cols - 1) else "┤") + "\n"

    def row_text(r: int) -> str:
        walls = ["┃" if wall(r, c) else "│" for c in range(n_cols - 1)]
        return "".join(
            "│" + "".join(chain.from_iterable(zip(line, [*walls, "│"], strict=True))) + "\n"
            for line in zip(*grid[r], strict=True)
        )

    top = "┌" + "".join(
        "─" * w + ("┰" if wall(0, c) else "┬") for c, w in enumerate(col_widths[:-1])
    )
    bottom = "└" + "".join(
        "─" * w + ("┸" if wall(n_rows - 1, c) else "┴") for c, w in enumerate(col_widths[:-1])
    )
    body = "".join(row_text(r) + (between(r) if r < n_rows - 1 else "") for r in range(n_rows))
    return top + "─" * col_widths[-1] + "┐\n" + body + bottom + "─" * col_widths[-1] + "┘\n"


_CROSSES = {
    (False, False, False, False): "┼",
    (True, True, False, False): "╂",
    (False, False, True, True): "┿",
    (True, True, True, True): "╋",
    (True, False, False, False): "╀",
    (False, True, False, False): "╁",
    (False, False, True, False): "┽",
    (False, False, False, True): "┾",
    (True, False, True, False): "╃",
    (True, False, False, True): "╄",
    (False, True, True, False): "╅",
    (False, True, False, True): "╆",
    (True, False, True, True): "╇",
    (False, True, True, True): "╈",
    (True, True, True, False): "╉",
    (True, True, False, True): "╊",
}
"""The cross between four cells by which of its lines are heavy: (up, down, left, right)."""

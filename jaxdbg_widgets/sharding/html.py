"""The static HTML renderer: a self-contained, deterministic table readable without JavaScript.

The same input always gives the same bytes (nothing random, no ids), every string is escaped,
and the essentials (colours, sizes, tooltips as ``title``) are inline so sanitised viewers that
drop ``<style>`` still show the grid. It is also the widget's fallback in the output bundle.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape
from itertools import repeat
from operator import itemgetter
from typing import Any

from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.colors import text_colors
from jaxdbg_widgets.sharding.layout import (
    HOLDERS_LISTED,
    PROCESS_BELOW,
    PROCESS_RIGHT,
    ShardingLayout,
    holders_text,
    id_texts,
)
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.schema import ShardingView
from jaxdbg_widgets.sharding.view import view_model

LEGEND_LIMIT = 64
LINE_HEIGHT_EM = 1.25

# Selectors start with ``div.jdw-shd table.jdw-shd-t`` to outrank JupyterLab's rendered-HTML
# table rules (right-aligned, padded, striped rows), which would otherwise win.
_T = "div.jdw-shd table.jdw-shd-t"
STYLE = (
    ".jdw-shd{font-family:var(--jp-code-font-family,monospace);"
    "font-size:var(--jp-code-font-size,13px);color:var(--jp-ui-font-color1,#1f1f1f)}"
    ".jdw-shd-head{font-family:var(--jp-ui-font-family,sans-serif);margin:0 0 4px}"
    ".jdw-shd-scroll{overflow:auto;max-height:640px;max-width:100%}"
    ".jdw-shd-facet{display:inline-block;margin:0 12px 8px 0;vertical-align:top}"
    ".jdw-shd-facet figcaption{font-weight:bold}"
    f"{_T}{{border-collapse:collapse;table-layout:fixed;margin:0;font-size:inherit;"
    "color:inherit;border:none}"
    f"{_T} tr,{_T} tr:hover{{background:transparent}}"
    f"{_T} td{{padding:0 2px;text-align:center;vertical-align:middle;white-space:nowrap;"
    "overflow:hidden;text-overflow:ellipsis;line-height:1.25;"
    "border:1px solid var(--jp-border-color1,#bdbdbd)}"
    f"{_T} th{{font-weight:normal;color:var(--jp-ui-font-color2,#616161);text-align:center;"
    "font-family:var(--jp-ui-font-family,sans-serif);font-size:smaller;padding:2px;"
    "line-height:1.25;white-space:nowrap;border:none;background:transparent}"
    f"{_T} th.jdw-shd-rax{{writing-mode:vertical-rl}}"
    ".jdw-shd-legend{font-family:var(--jp-ui-font-family,sans-serif);margin-top:4px;"
    "font-size:smaller}"
    ".jdw-shd-legend span{display:inline-block;margin:0 10px 2px 0}"
    ".jdw-shd-legend i{display:inline-block;width:1em;height:1em;vertical-align:middle;"
    "margin-right:3px;border:1px solid var(--jp-border-color1,#bdbdbd)}"
)


def render_html(layout: ShardingLayout, options: RenderOptions) -> str:
    """The layout as one HTML fragment with its own ``<style>``."""
    with collector_paused():
        return _html(view_model(layout, options))


def html_from_view(view: ShardingView) -> str:
    """HTML for a view model (see :func:`jaxdbg_widgets.sharding.view.view_model`)."""
    with collector_paused():
        return _html(view)


def _html(view: dict[str, Any]) -> str:
    head = escape(view["kind"]) + " · " + " · ".join(escape(p) for p in view["summary"])
    cells = _cell_bodies(view)
    parts = [
        '<div class="jdw-shd">',
        f"<style>{STYLE}</style>",
        f'<div class="jdw-shd-head"><b>{head}</b></div>',
        '<div class="jdw-shd-scroll">',
        *(_facet_html(facet, *cells) for facet in view["facets"]),
        "</div>",
        _legend_html(view),
        "</div>",
    ]
    return "".join(parts)


def _cell_bodies(view: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Per cell: its colour style, and its whole ``<td>`` with the tooltip as ``title`` (as
    drawn where no track size goes: all but the first row and column)."""
    cells = view["cells"]
    colors = cells["color"]
    if all(colors):
        styles = list(_color_styles(tuple(colors)))
    else:
        inks = iter(text_colors([c for c in colors if c]))
        styles = [f"background:{c};color:{next(inks)}" if c else "" for c in colors]
    if view.get("process_edges"):
        styles = _with_process_edges(styles, view["process_edges"])
    heads = map("".join, zip(repeat('<td style="'), styles, repeat('" title="')))
    pieces = _tooltip_pieces(cells, view["tips"])
    labels = _escaped_all(cells["label"])
    plain = list(map("".join, zip(heads, *pieces, labels, repeat("</td>"))))
    return styles, plain


_TD_STYLE = len('<td style="')
PROCESS_LINE = "3px solid var(--jp-ui-font-color1,#1f1f1f)"
"""The border drawn between cells held by different processes."""
_EDGE_STYLES = {
    PROCESS_RIGHT: f"border-right:{PROCESS_LINE}",
    PROCESS_BELOW: f"border-bottom:{PROCESS_LINE}",
    PROCESS_RIGHT | PROCESS_BELOW: f"border-right:{PROCESS_LINE};border-bottom:{PROCESS_LINE}",
}


def _with_process_edges(styles: list[str], edges: list[list[int]]) -> list[str]:
    """Each cell's style, with a heavy right or bottom border where the next cell of its facet
    is held by other processes."""
    marked = list(styles)
    for cell, sides in edges:
        marked[cell] = (
            f"{marked[cell]};{_EDGE_STYLES[sides]}" if marked[cell] else _EDGE_STYLES[sides]
        )
    return marked


def _tooltip_pieces(cells: dict[str, list[Any]], tips: list[list[str]]) -> list[Iterable[str]]:
    """The escaped pieces of each cell's tooltip (see
    :func:`~jaxdbg_widgets.sharding.view.tooltip_text`) up to the closing quote of its
    ``title``, a column at a time: platform, device ids, process line, index, shape lines. The
    tips table is escaped once per entry and the ids are digits, so only the index texts are
    escaped a cell at a time."""
    count = len(cells["label"])
    escaped = [
        (escape(platform) + " ", f"\n{escape(process)}\nindex ", f'\n{escape(shape)}">')
        for platform, process, shape in tips
    ]
    if len(escaped) == 1:
        heads, middles, tails = (repeat(text, count) for text in escaped[0])
    else:
        picked = list(map(escaped.__getitem__, cells["tip"]))
        heads, middles, tails = (map(itemgetter(k), picked) for k in range(3))
    devices = cells["devices"]
    if set(map(len, devices)) == {1}:
        ids: Iterable[str] = id_texts(list(map(itemgetter(0), devices)))
    else:  # the label's word after the platform lists the holders: ``TPU 0,1 p0`` -> ``0, 1``
        platforms = map(itemgetter(0), map(tips.__getitem__, cells["tip"]))
        ids = list(map(_holder_ids, cells["label"], platforms, devices))
    return [heads, ids, middles, _escaped_all(cells["index"]), tails]


def _holder_ids(label: str, platform: str, devices: list[int]) -> str:
    """The device ids in a cell's ``label`` (``{platform} {id},{id}…``, maybe followed by its
    processes), separated by a comma and a space as its tooltip lists them; many holders are
    summarised as the label summarises them."""
    if len(devices) > HOLDERS_LISTED:
        return escape(holders_text(devices, ", "))
    return label[len(platform) + 1 :].partition(" ")[0].replace(",", ", ")


@lru_cache(maxsize=16)
def _color_styles(colors: tuple[str, ...]) -> tuple[str, ...]:
    """``background:…;color:…`` for each background, kept for the last few colour lists (the
    default colours of a grid are the same for every grid with as many cells)."""
    return tuple(map("background:{};color:{}".format, colors, text_colors(list(colors))))


def _escaped_all(texts: list[str]) -> list[str]:
    """``html.escape`` of each text, done in one pass over them all joined by a NUL (the texts
    themselves when none needs escaping)."""
    joined = "\0".join(texts)
    escaped = escape(joined)
    if escaped == joined:
        return texts
    if joined.count("\0") != max(len(texts) - 1, 0):
        return [escape(text) for text in texts]
    return escaped.split("\0")


def _facet_html(facet: dict[str, Any], styles: list[str], plain: list[str]) -> str:
    """One table: sizes go on the first row (widths) and first column (heights) only; the other
    positions take each cell's whole ``<td>`` from ``plain``."""
    n_rows, n_cols = facet["rows"], facet["cols"]
    at, holes = _grid_order(facet["cells"], n_rows * n_cols, n_cols)
    widths, heights = _track_styles(tuple(facet["col_widths"]), tuple(facet["row_heights"]))
    axis_row, axis_cell = _axis_labels(facet["col_label"], facet["row_label"], n_rows, n_cols)
    rows = [axis_row]
    for r in range(n_rows):
        row = at[r * n_cols : (r + 1) * n_cols]
        if r == 0:
            sizes = list(widths)
            if heights[0] and sizes:
                sizes[0] += ";" + heights[0]
        else:
            sizes = [heights[r]] if heights[r] else []
        sized = "".join(map(_sized, row, sizes, repeat(styles), repeat(plain)))
        rest = row[len(sizes) :]
        if holes:
            tds = "".join('<td style=""></td>' if i is None else plain[i] for i in rest)
        else:
            tds = "".join(map(plain.__getitem__, rest))
        rows.append(f"<tr>{axis_cell if r == 0 else ''}{sized}{tds}</tr>")
    caption = f"<figcaption>{escape(facet['title'])}</figcaption>" if facet["title"] else ""
    return f'<figure class="jdw-shd-facet">{caption}<table class="jdw-shd-t">{"".join(rows)}</table></figure>'


@lru_cache(maxsize=16)
def _axis_labels(col_label: str, row_label: str, n_rows: int, n_cols: int) -> tuple[str, str]:
    """The row naming the dimension across (with its corner) and the cell naming the dimension
    down, written once for the facets of a grid."""
    axis_row = ""
    if col_label:
        corner = "<th></th>" if row_label else ""
        axis_row = f'<tr>{corner}<th colspan="{n_cols}">{escape(col_label)} →</th></tr>'
    axis_cell = ""
    if row_label:
        axis_cell = f'<th class="jdw-shd-rax" rowspan="{n_rows}">{escape(row_label)} →</th>'
    return axis_row, axis_cell


def _sized(i: int | None, size: str, styles: list[str], plain: list[str]) -> str:
    """The ``<td>`` of cell ``i`` (None: an empty position) with ``size`` before its style."""
    if i is None:
        return f'<td style="{size}"></td>'
    body = plain[i][_TD_STYLE:]
    return f'<td style="{size};{body}' if styles[i] else f'<td style="{size}{body}'


@lru_cache(maxsize=64)
def _track_styles(
    widths: tuple[int, ...], heights: tuple[int | None, ...]
) -> tuple[list[str], list[str]]:
    """The width style of each column and the height style of each row, written once for the
    facets of a grid that share their track sizes."""
    return (
        [f"width:{w}ch;min-width:{w}ch;max-width:{w}ch" for w in widths],
        ["" if h is None else f"height:{h * LINE_HEIGHT_EM:g}em" for h in heights],
    )


def _grid_order(placed: list[list[int]], size: int, n_cols: int) -> tuple[list[int | None], bool]:
    """The cell number at each grid position in row-major order (None where no cell is), and
    whether any position is empty."""
    if len(placed) == size and list(map(_ROW_COL, placed)) == _row_major(size, n_cols):
        return list(map(itemgetter(2), placed)), False
    at: list[int | None] = [None] * size
    for r, c, i in placed:
        at[r * n_cols + c] = i
    return at, None in at


_ROW_COL = itemgetter(0, 1)


@lru_cache(maxsize=16)
def _row_major(size: int, n_cols: int) -> list[tuple[int, int]]:
    """``(row, column)`` of each position of a grid ``n_cols`` wide, in row-major order."""
    return [divmod(spot, n_cols) for spot in range(size)]


def _legend_html(view: dict[str, Any]) -> str:
    cells = view["cells"]
    count = len(cells["label"])
    entries = []
    if view["use_color"] and count <= LEGEND_LIMIT:
        entries = [
            f'<span><i style="background:{color}"></i>{escape(label)}</span>'
            for color, label in zip(cells["color"], cells["label"], strict=True)
        ]
    elif view["use_color"]:
        entries = [f"<span>one colour per shard ({count} colours)</span>"]
    if len(view["processes"]) > 1:
        entries.extend(f"<span>process {p}: {escape(ids)}</span>" for p, ids in view["processes"])
    return f'<div class="jdw-shd-legend">{"".join(entries)}</div>' if entries else ""

"""The static HTML twin: each picture as a PNG with its shard overlay, colour bar, special-value
counts and histogram, readable without JavaScript and without a kernel.

The same view always gives the same bytes (no ids, nothing random), every string is escaped,
and sizes, colours and positions are inline so viewers that drop ``<style>`` still draw it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from jaxdbg_widgets.pictures.model import PictureSet
from jaxdbg_widgets.pictures.scale import fraction
from jaxdbg_widgets.pictures.schema import PanelView, PictureView
from jaxdbg_widgets.pictures.view import pictures_view

WIDTH = 900  # px: the widest a picture is drawn
LONG_SIDE = 400  # px: a lone panel's longer side grows to about this
MAX_CELL = 24  # px: the largest a cell is drawn
STRIP_HEIGHT = 24
HIST_WIDTH, HIST_HEIGHT = 160, 40
BOOL_FRAME = ";outline:1px solid var(--jp-border-color1,#bdbdbd)"
"""A thin frame around a bool picture, whose white True cells would vanish into a white page."""

STYLE = (
    ".jdw-pic{font-family:var(--jp-ui-font-family,sans-serif);"
    "font-size:var(--jp-ui-font-size1,13px);color:var(--jp-ui-font-color1,#1f1f1f);"
    "max-width:900px}"
    ".jdw-pic-one{margin:0 0 12px 0}"
    ".jdw-pic-title{font-family:var(--jp-code-font-family,monospace);font-weight:600}"
    ".jdw-pic-sum{color:var(--jp-ui-font-color2,#616161);font-size:smaller;margin:2px 0 4px}"
    ".jdw-pic-ptitle{font-family:var(--jp-code-font-family,monospace);font-size:smaller}"
    ".jdw-pic-axis{color:var(--jp-ui-font-color2,#616161);font-size:smaller}"
    ".jdw-pic-shard span{font-size:10px;background:var(--jp-layout-color0,#fff);opacity:.85;"
    "padding:0 2px}"
    ".jdw-pic-side{font-size:smaller}"
    ".jdw-pic-side i{display:inline-block;width:1em;height:1em;vertical-align:middle;"
    "margin-right:3px;border:1px solid var(--jp-border-color1,#bdbdbd)}"
    ".jdw-pic-scalar{font-family:var(--jp-code-font-family,monospace);font-size:1.4em}"
)


def render_html(pictures: PictureSet) -> str:
    """Every picture of ``pictures`` as one HTML fragment with its own ``<style>``."""
    return html_from_view(pictures_view(pictures))


def html_from_view(view: dict[str, Any]) -> str:
    """The static HTML of a pictures view (the widget's twin)."""
    parts = [f"<style>{STYLE}</style>", '<div class="jdw-pic">']
    parts += [_picture(p) for p in view["pictures"]]
    if view["skipped"]:
        skipped = escape(", ".join(view["skipped"]))
        parts.append(f'<div class="jdw-pic-sum">not drawn: {skipped}</div>')
    parts.append("</div>")
    return "".join(parts)


def cell_pixels(picture: PictureView) -> int:
    """The size in px of one reduced cell: big enough to see a small array, small enough that
    the panels fit ``WIDTH`` (the widget computes the same in ``js/pictures_model.js``)."""
    panels = picture["panels"]
    if not panels:
        return 1
    width, height = panels[0]["width"], panels[0]["height"]
    across = min(len(panels), 4)
    room = (WIDTH - 8 * (across - 1)) // across
    target = LONG_SIDE if across == 1 else room
    fit = max(1, min(room // max(1, width), target // max(1, width, height)))
    return min(MAX_CELL, fit)


def _picture(picture: PictureView) -> str:
    label = escape(picture["label"])
    head = (
        f'<figure class="jdw-pic-one" role="img" aria-label="{label}" style="margin:0 0 12px 0">'
        f'<figcaption class="jdw-pic-title">{escape(picture["title"])}</figcaption>'
        f'<div class="jdw-pic-sum">{"<br>".join(map(escape, picture["summary"]))}</div>'
    )
    if picture["layout"] == "scalar":
        return head + f'<div class="jdw-pic-scalar">{escape(picture["scalar"])}</div></figure>'
    px = cell_pixels(picture)
    panels = "".join(_panel(picture, panel, px) for panel in picture["panels"])
    if picture["hidden"]:
        panels += f'<div class="jdw-pic-axis">… {picture["hidden"]} more slices</div>'
    if picture["sliders"]:
        shown = ", ".join(
            f"dim {s['dim']} = {s['value']} of {s['size']}" for s in picture["sliders"]
        )
        panels += f'<div class="jdw-pic-axis">{escape(shown)} (sliders in the widget)</div>'
    body = (
        '<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">'
        f'<div style="display:flex;flex-wrap:wrap;gap:8px;max-width:{WIDTH}px">{panels}</div>'
        f"{_side(picture)}</div>"
    )
    return head + body + "</figure>"


def _panel(picture: PictureView, panel: PanelView, px: int) -> str:
    width = panel["width"] * px
    height = STRIP_HEIGHT if picture["layout"] == "strip" else panel["height"] * px
    rows, cols = picture["grid"]
    shards = "".join(_shard(picture["shards"][i], rows, cols, width) for i in panel["shards"])
    shards = "".join(_mark(picture, panel, mark) for mark in panel["marks"]) + shards
    title = f'<div class="jdw-pic-ptitle">{escape(panel["title"])}</div>' if panel["title"] else ""
    axis = f"{cols} values" if picture["layout"] == "strip" else f"{rows} rows × {cols} columns"
    line = _line(picture["line"], width) if picture["line"] is not None else ""
    return (
        f"<div>{title}"
        f'<div style="position:relative;width:{width}px;height:{height}px">'
        f'<img src="{panel["png"]}" alt="" width="{width}" height="{height}" '
        f'style="display:block;width:{width}px;height:{height}px;image-rendering:pixelated'
        f'{BOOL_FRAME if picture["dtype"] == "bool" else ""}">'
        f"{shards}</div>{line}"
        f'<div class="jdw-pic-axis">{axis}</div></div>'
    )


def _mark(picture: PictureView, panel: PanelView, mark: tuple[int, int, int]) -> str:
    """A ring around one lone NaN/+Inf/-Inf cell, in that special value's colour."""
    row, col, kind = mark
    left, top = 100 * (col + 0.5) / panel["width"], 100 * (row + 0.5) / panel["height"]
    color = picture["specials"][kind]["color"]
    return (
        f'<div class="jdw-pic-mark" style="position:absolute;left:{left:.4g}%;top:{top:.4g}%;'
        f"width:12px;height:12px;margin:-8px 0 0 -8px;border:2px solid {color};"
        'border-radius:50%;pointer-events:none"></div>'
    )


def _shard(shard: dict[str, Any], rows: int, cols: int, width: int) -> str:
    (r0, r1), (c0, c1) = shard["rows"], shard["cols"]
    left, top = 100 * c0 / cols, 100 * r0 / rows
    w, h = 100 * (c1 - c0) / cols, 100 * (r1 - r0) / rows
    label = escape(shard["label"])
    tip = escape(f"{shard['label']}: rows {r0}:{r1}, columns {c0}:{c1}")
    shown = f"<span>{label}</span>" if width * w / 100 >= 40 else ""
    return (
        f'<div class="jdw-pic-shard" title="{tip}" style="position:absolute;left:{left:.4g}%;'
        f"top:{top:.4g}%;width:{w:.4g}%;height:{h:.4g}%;box-sizing:border-box;"
        f'border:1px solid rgba(0,0,0,.7);outline:1px solid rgba(255,255,255,.6);overflow:hidden">'
        f"{shown}</div>"
    )


def _side(picture: PictureView) -> str:
    scale = picture["scale"]
    stops = ",".join(scale["stops"])
    bar = (
        f'<div style="width:{HIST_WIDTH}px;height:10px;background:linear-gradient(to right,{stops})'
        '"></div>'
        f'<div style="display:flex;justify-content:space-between;width:{HIST_WIDTH}px">'
        f"<span>{escape(scale['low'])}</span><span>{escape(scale['cmap'])}</span>"
        f"<span>{escape(scale['high'])}</span></div>"
    )
    specials = "<br>".join(
        f'<span><i style="background:{s["color"]}"></i>{escape(s["name"])} {s["count"]}</span>'
        for s in picture["specials"]
    )
    return (
        f'<div class="jdw-pic-side">{bar}{_histogram(picture)}<div style="margin-top:4px">'
        f"{specials}</div></div>"
    )


def _histogram(picture: PictureView) -> str:
    histogram = picture["histogram"]
    counts = histogram["counts"]
    if not counts:
        return ""
    top = max(counts) or 1
    bar = HIST_WIDTH / len(counts)
    rects = "".join(
        f'<rect x="{i * bar:.4g}" y="{HIST_HEIGHT - HIST_HEIGHT * c / top:.4g}" '
        f'width="{max(bar - 1, 1):.4g}" height="{HIST_HEIGHT * c / top:.4g}"></rect>'
        for i, c in enumerate(counts)
        if c
    )
    sampled = f", 1 in {histogram['step']}" if histogram["step"] > 1 else ""
    return (
        f'<div style="margin-top:6px">histogram of finite values{sampled}</div>'
        f'<svg width="{HIST_WIDTH}" height="{HIST_HEIGHT}" role="presentation" '
        f'style="fill:var(--jp-brand-color1,#1976d2)">{rects}</svg>'
        f'<div style="display:flex;justify-content:space-between;width:{HIST_WIDTH}px">'
        f"<span>{escape(histogram['low'])}</span><span>{escape(histogram['high'])}</span></div>"
    )


def _line(points: list[float | None], width: int) -> str:
    """The strip's values as an SVG polyline, broken at gaps (NaN/Inf)."""
    finite = [p for p in points if p is not None]
    if not finite:
        return ""
    lo, hi = min(finite), max(finite)
    height, step = 80, width / max(1, len(points))
    runs, run = [], []
    for i, p in enumerate(points):
        if p is None:
            runs, run = ([*runs, run] if run else runs), []
            continue
        level = fraction(p, lo, hi) if hi > lo else 0.0
        run.append(f"{(i + 0.5) * step:.4g},{height - 2 - (height - 4) * level:.4g}")
    runs = [*runs, run] if run else runs
    lines = "".join(f'<polyline points="{" ".join(r)}"></polyline>' for r in runs)
    return (
        f'<svg width="{width}" height="{height}" role="presentation" style="fill:none;'
        f'stroke:var(--jp-brand-color1,#1976d2);stroke-width:1.5">{lines}</svg>'
    )

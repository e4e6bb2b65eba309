"""The picture widget's JSON, declared once: the ``view`` the kernel sends, the ``probe`` answer
to a hovered cell, and the messages the browser sends.

``js/schema/pictures.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/pictures.js`` imports, so TypeScript's checker holds it to them. Tuples travel as
JSON arrays. Everything is plain JSON (pixels as base64 PNG ``data:`` URIs), since Colab drops
binary buffers.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "HistogramView",
    "NoProbe",
    "PanelView",
    "PictureMessage",
    "PictureView",
    "PicturesModel",
    "PicturesView",
    "Probe",
    "ScaleView",
    "ShardView",
    "SliderView",
    "SpecialView",
]


class PanelView(TypedDict):
    """One image: its title, leading index, PNG, reduced size, its shards (numbers into the
    picture's ``shards``), ``[row, col, special]`` rings around a few NaN (0), +Inf (1) or -Inf
    (2) cells so one such pixel is seen at once, and, when small and unreduced, every cell's
    exact value."""

    title: str
    index: list[int]
    png: str
    width: int
    height: int
    shards: list[int]
    marks: list[tuple[int, int, int]]
    values: list[str] | None


class ScaleView(TypedDict):
    """The colour map, its two ends as numbers and text, and colour-bar stops."""

    cmap: str
    vmin: float
    vmax: float
    low: str
    high: str
    stops: list[str]
    diverging: bool


class SpecialView(TypedDict):
    """NaN, +Inf or -Inf: its name, colour and count."""

    name: str
    color: str
    count: int


class HistogramView(TypedDict):
    """Counts of finite values per bin, the range's ends as text, the sampling step."""

    counts: list[int]
    low: str
    high: str
    step: int


class ShardView(TypedDict):
    """A shard's rows and columns (``[start, stop)`` in full-resolution cells), label, devices
    and their platform (``CPU``), which names each device as the label does (``CPU 6``)."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    label: str
    devices: list[int]
    platform: str


class SliderView(TypedDict):
    """A leading axis drawn as a slider: its dimension, size and shown index."""

    dim: int
    size: int
    value: int


class PictureView(TypedDict):
    """One array's picture: what it is, how it is laid out and reduced, and its legend."""

    path: str
    title: str
    label: str
    layout: Literal["scalar", "strip", "grid"]
    shape: list[int]
    dtype: str
    summary: list[str]
    scalar: str
    grid: tuple[int, int]
    factor: tuple[int, int]
    panels: list[PanelView]
    hidden: int
    sliders: list[SliderView]
    scale: ScaleView
    specials: list[SpecialView]
    histogram: HistogramView
    shards: list[ShardView]
    spec: str
    line: list[float | None] | None


class PicturesView(TypedDict):
    """Every picture of one ``show`` call, and the leaves that were not drawn."""

    pictures: list[PictureView]
    skipped: list[str]


class Probe(TypedDict):
    """The kernel's answer to a hovered cell: where, and the exact value there."""

    picture: int
    panel: int
    index: list[int]
    text: str


class NoProbe(TypedDict):
    """No cell asked about yet: an empty object."""


class PictureMessage(TypedDict):
    """What the browser sends: ``probe`` asks for the value at ``[row, col]`` of a panel (full
    resolution); ``slide`` shows leading index ``index`` of a picture drawn with sliders."""

    event: Literal["probe", "slide"]
    picture: int
    panel: int
    index: list[int]


class PicturesModel(TypedDict):
    """The widget's synced state: the view, the last probe's answer, and the key its saved
    output links to it by (``js/live_link.js``)."""

    view: PicturesView
    probe: Probe | NoProbe
    link: str

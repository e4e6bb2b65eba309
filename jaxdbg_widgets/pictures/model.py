"""The pure picture model: what ``show`` draws for each array, with no view imported.

An array becomes a :class:`Picture`: its layout by rank (0-D a value, 1-D a strip, 2-D and up a
grid of the two trailing axes, leading axes as facets or sliders), the statistics of every value,
a histogram of the finite ones, the colour scale, the reduced panels, and the shard boxes of a
sharded ``jax.Array``. A pytree gives a :class:`PictureSet`, one picture per array leaf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import islice, product
from typing import Any, Literal

import numpy as np

from jaxdbg_widgets.pictures.numeric import ComplexPart, host_array, numeric
from jaxdbg_widgets.pictures.reduce import (
    Histogram,
    Stats,
    block_reduce,
    histogram,
    reduction_factors,
    value_stats,
)
from jaxdbg_widgets.pictures.scale import Scale, choose_scale

Layout = Literal["scalar", "strip", "grid"]
Leading = Literal["facets", "sliders"]
TEXT_ONLY = 1
"""Arrays of at most this many values (a 1 x 1 result) read as text: a picture, a histogram and
NaN counts of one value say less than the value does."""


def worth_a_picture(value: Any) -> bool:
    """Whether ``value`` is an array of rank 1 or more with over ``TEXT_ONLY`` values, which
    the debugger and the print log draw (smaller ones read as text)."""
    shape = getattr(value, "shape", ())
    return (
        getattr(value, "dtype", None) is not None and bool(shape) and math.prod(shape) > TEXT_ONLY
    )


@dataclass(frozen=True)
class PictureOptions:
    """What ``show`` accepts: the colour map and its ends, complex part, 1-D line plot, how
    leading axes are laid out, and the size of the reduced picture."""

    cmap: str | None = None
    vmin: float | None = None
    vmax: float | None = None
    complex_part: ComplexPart = "magnitude"
    line: bool = False
    leading: Leading = "facets"
    budget: int = 160_000  # reduced cells per picture, over all its panels
    max_cols: int = 900
    max_rows: int = 900
    max_facets: int = 16

    def __post_init__(self) -> None:
        if self.leading not in ("facets", "sliders"):
            raise ValueError(f"leading must be 'facets' or 'sliders', got {self.leading!r}")
        if self.budget < 1 or self.max_cols < 1 or self.max_rows < 1 or self.max_facets < 1:
            raise ValueError("budget, max_cols, max_rows and max_facets must be positive")
        _check_end("vmin", self.vmin)
        _check_end("vmax", self.vmax)
        if self.vmin is not None and self.vmax is not None and self.vmin >= self.vmax:
            raise ValueError(
                f"vmin must be below vmax, got vmin={self.vmin!r} and vmax={self.vmax!r}"
            )


def _check_end(name: str, value: Any) -> None:
    """An end of the colour scale is a finite real number (or ``None``: the data decides)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be a real number or None, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


@dataclass(frozen=True)
class Panel:
    """One 2-D image: the leading index it shows (``()`` up to rank 2) and its reduced cells."""

    index: tuple[int, ...]
    cells: np.ndarray = field(repr=False, compare=False)

    @property
    def title(self) -> str:
        return "[" + ", ".join([*map(str, self.index), ":", ":"]) + "]" if self.index else ""


@dataclass(frozen=True)
class ShardBox:
    """One shard: its ``(start, stop)`` per dimension, label (``CPU 0,1``), device ids and their
    platform as the label names it (``CPU``)."""

    bounds: tuple[tuple[int, int], ...]
    label: str
    devices: tuple[int, ...]
    platform: str = ""

    def holds(self, leading: tuple[int, ...]) -> bool:
        """Whether this shard covers the leading index ``leading`` of a panel."""
        return all(a <= i < b for i, (a, b) in zip(leading, self.bounds, strict=False))


@dataclass(frozen=True)
class Picture:
    """One array drawn: layout, statistics, scale, panels, reduction factor and shards.

    ``grid`` is the full-resolution (rows, cols) of a panel and ``factor`` the block size down
    and across; ``source`` is the host array, read for exact values on hover.
    """

    path: str
    shape: tuple[int, ...]
    dtype: str
    kind: str
    part: ComplexPart | None
    layout: Layout
    stats: Stats
    histogram: Histogram
    scale: Scale
    grid: tuple[int, int]
    factor: tuple[int, int]
    panels: tuple[Panel, ...]
    panel_count: int
    leading: Leading
    line: bool
    shards: tuple[ShardBox, ...] = ()
    spec: str | None = None
    source: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def reduced(self) -> bool:
        return self.factor != (1, 1)

    @property
    def lead_shape(self) -> tuple[int, ...]:
        return self.shape[:-2] if self.layout == "grid" else ()

    def full_index(self, panel: int, row: int, col: int) -> tuple[int, ...]:
        """The array index of full-resolution cell (row, col) of panel ``panel``."""
        if self.layout == "scalar":
            return ()
        if self.layout == "strip":
            return (col,)
        return (*self.panels[panel].index, row, col)

    def value_text(self, index: tuple[int, ...]) -> str:
        """The exact value at ``index`` as its own dtype prints it."""
        if self.source is None:
            raise LookupError("this picture keeps no values")
        checked = tuple(_checked(i, n) for i, n in zip(index, self.shape, strict=True))
        return str(self.source[checked])


@dataclass(frozen=True)
class PictureSet:
    """The pictures of one ``show`` call, in pytree order, the leaves that were skipped, and
    the options they were drawn with."""

    pictures: tuple[Picture, ...]
    skipped: tuple[str, ...] = ()
    options: PictureOptions = field(default_factory=lambda: PictureOptions())


def build_picture(
    x: Any,
    path: str = "",
    options: PictureOptions | None = None,
    position: tuple[int, ...] | None = None,
) -> Picture:
    """The picture of one array; ``position`` is the leading index shown when ``leading`` is
    ``"sliders"`` (default: all zeros)."""
    options = options or PictureOptions()
    _check_not_deleted(x, path)
    source = host_array(x)
    drawn = numeric(source, options.complex_part)
    values = drawn.values
    stats = value_stats(values)
    scale = choose_scale(
        stats.min,
        stats.max,
        kind=drawn.kind,
        cmap=options.cmap,
        vmin=options.vmin,
        vmax=options.vmax,
    )
    layout: Layout = "scalar" if values.ndim == 0 else "strip" if values.ndim == 1 else "grid"
    grid = (
        (1, 1)
        if layout == "scalar"
        else (1, values.shape[0])
        if layout == "strip"
        else (
            values.shape[-2],
            values.shape[-1],
        )
    )
    leads = _leading_indices(values.shape, layout, options, position)
    facets = max(1, len(leads))
    wrap = min(facets, 4)
    factor = reduction_factors(
        *grid,
        budget=max(1024, options.budget // facets),
        max_rows=options.max_rows,
        max_cols=max(64, options.max_cols // wrap),
    )
    panels = tuple(
        Panel(lead, block_reduce(_panel_values(values, layout, lead), *factor)) for lead in leads
    )
    boxes, spec = _shards(x, source.shape)
    return Picture(
        path=path,
        shape=tuple(source.shape),
        dtype=drawn.dtype,
        kind=drawn.kind,
        part=drawn.part,
        layout=layout,
        stats=stats,
        histogram=histogram(values, stats, integral=drawn.kind != "float"),
        scale=scale,
        grid=grid,
        factor=factor if layout != "scalar" else (1, 1),
        panels=panels,
        panel_count=math.prod(values.shape[:-2]) if layout == "grid" else 1,
        leading=options.leading,
        line=options.line and layout == "strip",
        shards=boxes,
        spec=spec,
        source=source,
    )


def _check_not_deleted(x: Any, path: str) -> None:
    """Raise a clear error for a ``jax.Array`` whose buffer is gone (deleted or donated)."""
    is_deleted = getattr(x, "is_deleted", None)
    if callable(is_deleted) and is_deleted():
        shape = ",".join(map(str, getattr(x, "shape", ())))
        raise RuntimeError(
            f"show cannot draw the array at {path or 'the root'} ({x.dtype}[{shape}]): it was "
            "deleted or donated (x.delete(), or passed to a jit function with donate_argnums, "
            "which hands its buffer to the result); show it before that call, or show the result"
        )


def build_pictures(
    x: Any, options: PictureOptions | None = None, *, kind: type[PictureSet] = PictureSet
) -> PictureSet:
    """One picture per array leaf of the pytree ``x``, labelled with its path, as a ``kind``."""
    import jax

    leaves, _ = jax.tree_util.tree_flatten_with_path(x)
    pictures, skipped = [], []
    for key, leaf in leaves:
        path = jax.tree_util.keystr(key)
        if isinstance(leaf, jax.core.Tracer):
            raise TypeError(
                f"show needs concrete arrays, got a tracer at {path or 'the root'}: call it "
                "outside jit, or inside through jaxdbg_widgets.callback"
            )
        if not _drawable(leaf):
            skipped.append(f"{path or 'the root'} ({type(leaf).__name__})")
            continue
        pictures.append(build_picture(leaf, path, options))
    return kind(tuple(pictures), tuple(skipped), options or PictureOptions())


def _drawable(leaf: Any) -> bool:
    """Arrays and numbers are drawn; strings, objects and ``None`` are not."""
    if isinstance(leaf, (str, bytes)) or leaf is None:
        return False
    dtype = getattr(leaf, "dtype", None)
    if dtype is None:
        return isinstance(leaf, (bool, int, float, complex, np.generic))
    try:
        return np.dtype(dtype).kind in "biufcV"
    except TypeError:  # typed PRNG keys and other extended dtypes
        return False


def _leading_indices(
    shape: tuple[int, ...], layout: Layout, options: PictureOptions, position: Any
) -> list[tuple[int, ...]]:
    """The leading indices drawn: ``[()]`` up to rank 2, the first ``max_facets`` in C order for
    facets, the one ``position`` for sliders."""
    if layout != "grid" or len(shape) == 2:
        return [()]
    lead = shape[:-2]
    if options.leading == "sliders":
        chosen = tuple(position) if position is not None else (0,) * len(lead)
        if len(chosen) != len(lead):
            raise ValueError(f"position needs {len(lead)} leading indices, got {chosen}")
        return [tuple(_checked(i, n) for i, n in zip(chosen, lead, strict=True))]
    return list(islice(product(*map(range, lead)), options.max_facets))


def _panel_values(values: np.ndarray, layout: Layout, lead: tuple[int, ...]) -> np.ndarray:
    if layout == "scalar":
        return values.reshape(1, 1)
    if layout == "strip":
        return values.reshape(1, -1)
    return values[lead]


def _shards(x: Any, shape: tuple[int, ...]) -> tuple[tuple[ShardBox, ...], str | None]:
    """The shard boxes of a ``jax.Array`` spread over more than one device, from its layout."""
    sharding = getattr(x, "sharding", None)
    if sharding is None or len(getattr(sharding, "device_set", ())) < 2 or not shape:
        return (), None
    from jaxdbg_widgets.sharding.layout import sharding_layout

    layout = sharding_layout(shape, sharding)
    boxes = tuple(
        ShardBox(cell.bounds, cell.label, tuple(cell.device_ids), cell.platform)
        for cell in layout.cells
    )
    return boxes, layout.spec_text()


def _checked(i: int, n: int) -> int:
    if not 0 <= int(i) < n:
        raise IndexError(f"index {i} out of range for an axis of size {n}")
    return int(i)

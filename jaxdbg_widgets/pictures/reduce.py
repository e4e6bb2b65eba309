"""Statistics of a whole array and block reduction of its 2-D panels, keeping NaN/Inf visible.

A reduced cell is the mean of its block, except that a block holding a NaN is NaN, else one
holding +Inf is +Inf, else one holding -Inf is -Inf: a single special value anywhere survives
into the picture. Block sums run in float64 as reshaped sums, so a 100M-element array is
reduced in a few passes with no Python loop over blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

HISTOGRAM_SAMPLE = 1 << 20  # at most this many values feed the histogram
HISTOGRAM_BINS = 32


@dataclass(frozen=True)
class Stats:
    """Counts and finite extremes of every value of an array (NumPy's min, max and mean)."""

    size: int
    nan: int
    posinf: int
    neginf: int
    min: float | int | None
    max: float | int | None
    mean: float | None

    @property
    def finite(self) -> int:
        return self.size - self.nan - self.posinf - self.neginf


@dataclass(frozen=True)
class Histogram:
    """Counts of finite values per bin, the bins' edges, and the sampling step (1: every value)."""

    counts: tuple[int, ...]
    edges: tuple[float, ...]
    step: int


def value_stats(values: np.ndarray) -> Stats:
    """Size, NaN/+Inf/-Inf counts and the min, max and mean of the finite values."""
    size = int(values.size)
    if size == 0:
        return Stats(0, 0, 0, 0, None, None, None)
    flat = values.reshape(-1)
    if flat.dtype == np.bool_:
        flat = flat.view(np.uint8)
    lo, hi = flat.min(), flat.max()
    if np.isfinite(lo) and np.isfinite(hi):
        return Stats(size, 0, 0, 0, lo.item(), hi.item(), _mean(flat))
    nan_mask = np.isnan(flat)
    nan = int(np.count_nonzero(nan_mask))
    if nan:  # min and max gave NaN: take them again ignoring NaN
        lo, hi = np.fmin.reduce(flat), np.fmax.reduce(flat)
    posinf = int(np.count_nonzero(flat == np.inf)) if hi == np.inf else 0
    neginf = int(np.count_nonzero(flat == -np.inf)) if lo == -np.inf else 0
    count = size - nan - posinf - neginf
    if count == 0:
        return Stats(size, nan, posinf, neginf, None, None, None)
    if posinf or neginf:
        finite = np.isfinite(flat)
        lo = np.min(flat, where=finite, initial=np.inf)
        hi = np.max(flat, where=finite, initial=-np.inf)
    else:
        finite = ~nan_mask
    with np.errstate(over="ignore"):
        mean = float(np.sum(flat, where=finite, dtype=np.float64)) / count
    if not math.isfinite(mean):  # a float64 sum overflowed: add the values already divided
        mean = float(np.sum(flat.astype(np.float64) / count, where=finite))
    return Stats(size, nan, posinf, neginf, lo.item(), hi.item(), mean)


def _mean(values: np.ndarray) -> float:
    """NumPy's mean, again in float64 when the native one overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is answered below
        mean = float(np.mean(values))
        if math.isfinite(mean):
            return mean
        mean = float(np.mean(values, dtype=np.float64))
    if math.isfinite(mean):
        return mean
    return float(np.sum(values.astype(np.float64) / values.size))  # a float64 sum overflowed


def histogram(values: np.ndarray, stats: Stats, *, integral: bool) -> Histogram:
    """A histogram of the finite values over ``[min, max]``; past ``HISTOGRAM_SAMPLE`` values it
    counts every ``step``-th one. Integers spanning few values get one bin per value."""
    if stats.min is None or stats.max is None:
        return Histogram((), (), 1)
    flat = values.reshape(-1)
    if flat.dtype == np.bool_:
        flat = flat.view(np.uint8)
    step = max(1, math.ceil(flat.size / HISTOGRAM_SAMPLE))
    sample = flat[::step]
    if stats.finite != stats.size:
        sample = sample[np.isfinite(sample)]
    lo, hi = float(stats.min), float(stats.max)
    if integral and hi - lo + 1 <= HISTOGRAM_BINS:
        bins, span = int(hi - lo) + 1, (lo - 0.5, hi + 0.5)
    elif hi - lo > 1e-9 * max(1.0, abs(lo), abs(hi)):
        bins, span = HISTOGRAM_BINS, (lo, hi)
    else:  # one value, up to rounding: one bin around it
        bins, span = 1, (lo - 0.5, hi + 0.5)
    shrink = 2.0 if math.isinf(span[1] - span[0]) else 1.0  # halving is exact; no overflow
    low, high = span[0] / shrink, span[1] / shrink
    if (high - low) / bins <= np.spacing(max(abs(low), abs(high))):
        # bins narrower than float64 tells apart (a constant near 1e20): one bin holds them all
        return Histogram((int(sample.size),), (lo, hi), step)
    counts, edges = np.histogram(sample.astype(np.float64) / shrink, bins=bins, range=(low, high))
    return Histogram(tuple(counts.tolist()), tuple((edges * shrink).tolist()), step)


def reduction_factors(
    rows: int, cols: int, *, budget: int, max_rows: int, max_cols: int
) -> tuple[int, int]:
    """Block sizes down and across so the reduced grid has at most ``budget`` cells and fits
    ``max_rows`` by ``max_cols``; the same factor both ways keeps the aspect ratio."""
    square = max(1, math.ceil(math.sqrt(rows * cols / max(1, budget))))
    down = square if rows > 1 else 1
    return max(down, math.ceil(rows / max_rows)), max(square, math.ceil(cols / max_cols))


def block_reduce(panel: np.ndarray, down: int, across: int) -> np.ndarray:
    """The float64 block means of a 2-D panel, a block with NaN/+Inf/-Inf being that value."""
    if panel.dtype == np.bool_:
        panel = panel.view(np.uint8)
    if down == 1 and across == 1:
        return panel.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN/Inf blocks are marked below
        sums = _block_sums(panel, down, across, np.float64)
    rows, cols = panel.shape
    heights = _extents(rows, down)
    widths = _extents(cols, across)
    means = sums / np.outer(heights, widths)
    if np.issubdtype(panel.dtype, np.floating) and not np.isfinite(means).all():
        _mark_specials(means, panel, down, across)
    return means


def _block_sums(panel: np.ndarray, down: int, across: int, dtype: type) -> np.ndarray:
    """Sums of ``down`` by ``across`` blocks (the last ones ragged): rows first, on the whole
    panel as one reshape, then columns on the much smaller row sums."""
    return _row_sums(_row_sums(panel, down, dtype).T, across, dtype).T


def _row_sums(a: np.ndarray, size: int, dtype: type) -> np.ndarray:
    if size == 1:
        return a.astype(dtype)
    whole, rest = divmod(a.shape[0], size)
    head = a[: whole * size].reshape(whole, size, *a.shape[1:]).sum(axis=1, dtype=dtype)
    if not rest:
        return head
    tail = a[whole * size :].sum(axis=0, keepdims=True, dtype=dtype)
    return np.concatenate([head, tail])


def _extents(size: int, block: int) -> np.ndarray:
    whole, rest = divmod(size, block)
    return np.array([block] * whole + ([rest] if rest else []), dtype=np.float64)


def _mark_specials(means: np.ndarray, panel: np.ndarray, down: int, across: int) -> None:
    """Give each block holding a special value that value: NaN first, then +Inf, then -Inf.

    A float64 block sum of narrower floats cannot overflow, so its value already tells +Inf,
    -Inf, and NaN (a NaN inside, or both infinities: then +Inf); only NaN sums need a look at
    the block. float64 panels can overflow without a special value, so they are checked.
    """
    sums_nan = np.isnan(means)
    nan = _block_any(np.isnan(panel), down, across) if sums_nan.any() else sums_nan
    if panel.dtype.itemsize < 8:
        pos = (means == np.inf) | (sums_nan & ~nan)
        neg = means == -np.inf
    else:
        has_pos = _block_any(panel == np.inf, down, across)
        pos = has_pos & ~nan
        neg = _block_any(panel == -np.inf, down, across) & ~nan & ~has_pos
        overflowed = ~np.isfinite(means) & ~(nan | pos | neg)
        for r, c in zip(*np.nonzero(overflowed), strict=True):
            block = panel[r * down : (r + 1) * down, c * across : (c + 1) * across]
            means[r, c] = float(np.sum(block.astype(np.float64) / block.size))
    means[neg] = -np.inf
    means[pos] = np.inf
    means[nan] = np.nan


def _block_any(mask: np.ndarray, down: int, across: int) -> np.ndarray:
    """Whether each ``down`` by ``across`` block of a boolean mask holds a True."""
    return _row_any(_row_any(mask, down).T, across).T


def _row_any(a: np.ndarray, size: int) -> np.ndarray:
    if size == 1:
        return a
    whole, rest = divmod(a.shape[0], size)
    head = a[: whole * size].reshape(whole, size, *a.shape[1:]).any(axis=1)
    if not rest:
        return head
    return np.concatenate([head, a[whole * size :].any(axis=0, keepdims=True)])

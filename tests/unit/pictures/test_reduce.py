"""Block reduction keeps every NaN/Inf visible, and the statistics are NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaxdbg_widgets.pictures.reduce import (
    block_reduce,
    histogram,
    reduction_factors,
    value_stats,
)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 60),
    cols=st.integers(1, 60),
    down=st.integers(1, 9),
    across=st.integers(1, 9),
    data=st.data(),
)
def test_a_special_value_anywhere_survives_into_its_block(rows, cols, down, across, data):
    dtype = data.draw(st.sampled_from([np.float16, np.float32, np.float64]))
    panel = np.random.default_rng(rows * 61 + cols).normal(size=(rows, cols)).astype(dtype)
    r, c = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    special = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    panel[r, c] = special
    reduced = block_reduce(panel, down, across)
    assert reduced.shape == (-(-rows // down), -(-cols // across))
    got = reduced[r // down, c // across]
    assert (np.isnan(got) and np.isnan(special)) or got == special
    others = np.ones(reduced.shape, dtype=bool)
    others[r // down, c // across] = False
    assert np.isfinite(reduced[others]).all()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_outranks_inf_and_inf_outranks_minus_inf_in_one_block(dtype):
    panel = np.zeros((4, 4), dtype=dtype)
    panel[0, 0], panel[0, 1], panel[1, 0] = np.inf, -np.inf, np.nan  # block (0, 0) has all three
    panel[2, 2], panel[3, 3] = np.inf, -np.inf  # block (1, 1): +Inf and -Inf
    panel[0, 2] = -np.inf  # block (0, 1): only -Inf
    reduced = block_reduce(panel, 2, 2)
    assert np.isnan(reduced[0, 0])
    assert reduced[1, 1] == np.inf
    assert reduced[0, 1] == -np.inf
    assert reduced[1, 0] == 0


def test_finite_blocks_are_means_and_ragged_edges_count_their_own_cells():
    panel = np.arange(5 * 7, dtype=np.int32).reshape(5, 7)
    reduced = block_reduce(panel, 2, 3)
    assert reduced[0, 0] == pytest.approx(panel[:2, :3].mean())
    assert reduced[2, 2] == pytest.approx(panel[4:, 6:].mean())
    assert reduced[1, 2] == pytest.approx(panel[2:4, 6:].mean())


def test_a_float64_sum_that_overflows_without_a_special_value_stays_finite():
    panel = np.full((4, 4), 1e308)
    reduced = block_reduce(panel, 4, 4)
    assert reduced[0, 0] == pytest.approx(1e308)


def test_bool_panels_reduce_to_the_fraction_of_true():
    panel = np.array([[True, False], [True, True]])
    assert block_reduce(panel, 2, 2)[0, 0] == pytest.approx(0.75)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_min_max_and_counts_equal_numpys(dtype):
    values = np.random.default_rng(3).normal(size=(300, 200)).astype(dtype)
    values[7, 9], values[100, 3], values[200, 150], values[5, 5] = np.nan, np.inf, -np.inf, np.nan
    stats = value_stats(values)
    finite = values[np.isfinite(values)]
    assert (stats.nan, stats.posinf, stats.neginf) == (
        np.count_nonzero(np.isnan(values)),
        np.count_nonzero(values == np.inf),
        np.count_nonzero(values == -np.inf),
    )
    assert stats.min == finite.min() and stats.max == finite.max()
    assert stats.mean == pytest.approx(float(finite.astype(np.float64).mean()), rel=1e-3)
    assert stats.finite == finite.size


def test_integer_extremes_are_exact():
    values = np.array([2**62 + 1, -(2**62) - 3, 5], dtype=np.int64)
    stats = value_stats(values)
    assert (stats.min, stats.max) == (-(2**62) - 3, 2**62 + 1)


def test_no_finite_values_has_no_extremes():
    stats = value_stats(np.array([np.nan, np.inf]))
    assert (stats.min, stats.max, stats.nan, stats.posinf) == (None, None, 1, 1)
    assert (
        histogram(np.array([np.nan]), value_stats(np.array([np.nan])), integral=False).counts == ()
    )


def test_histogram_counts_every_finite_value_and_integers_get_a_bin_per_value():
    values = np.array([0, 1, 1, 2, 2, 2, 7], dtype=np.int8)
    counts = histogram(values, value_stats(values), integral=True).counts
    assert counts == (1, 2, 3, 0, 0, 0, 0, 1)
    floats = np.array([0.0, 0.5, 1.0, np.nan, np.inf])
    result = histogram(floats, value_stats(floats), integral=False)
    assert sum(result.counts) == 3 and result.step == 1


def test_histogram_of_one_value_up_to_rounding_is_one_bin():
    values = np.abs(np.exp(1j * np.arange(8.0)))
    assert sum(histogram(values, value_stats(values), integral=False).counts) == 8


def test_reduction_fits_the_budget_and_keeps_the_aspect_ratio():
    down, across = reduction_factors(10_000, 10_000, budget=160_000, max_rows=900, max_cols=900)
    assert down == across and -(-10_000 // down) * -(-10_000 // across) <= 160_000
    assert reduction_factors(20, 30, budget=160_000, max_rows=900, max_cols=900) == (1, 1)
    assert reduction_factors(1, 1_000_000, budget=160_000, max_rows=900, max_cols=900)[1] >= 1112

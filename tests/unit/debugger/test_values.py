"""Array summaries and bounded reprs."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.session.values import (
    CELL_LIMIT,
    RESULT_LIMIT,
    array_summary,
    format_summary,
    is_array,
    safe_repr,
    short_repr,
    truncate,
    type_name,
)
from jaxdbg_widgets.debugger.view.build import ViewBuilder

from .conftest import CoreLikeFrame


def test_summary_counts_nan_and_inf_and_uses_finite_values_for_statistics():
    data = np.array([1.0, np.nan, 3.0, np.inf, -np.inf])
    summary = array_summary(data)
    assert summary["shape"] == [5]
    assert summary["dtype"] == "float64"
    assert summary["nan"] == 1
    assert summary["inf"] == 2
    assert summary["min"] == 1 and summary["max"] == 3 and summary["mean"] == 2
    assert summary["std"] == 1


def test_summary_of_a_jax_array_and_its_preview():
    summary = array_summary(jnp.arange(10, dtype=jnp.float32))
    assert summary["dtype"] == "float32"
    assert summary["size"] == 10
    assert summary["preview"] == "[0., 1., 2., 3., 4., 5., ...]"


def test_summary_of_all_nan_has_counts_but_no_statistics():
    summary = array_summary(np.full(3, np.nan))
    assert summary["nan"] == 3
    assert "mean" not in summary


def test_summary_of_booleans_strings_complex_and_empty():
    assert array_summary(np.array([True, False, True]))["mean"] == 0.666667
    assert "min" not in array_summary(np.array(["a", "b"]))
    assert array_summary(np.array([1 + 1j, np.nan]))["nan"] == 1
    assert array_summary(np.zeros((0, 3)))["shape"] == [0, 3]


def test_summary_of_a_large_array_stays_small():
    summary = array_summary(np.random.default_rng(0).normal(size=(1000, 1000)))
    assert len(format_summary(summary)) < 300


def test_is_array_excludes_classes_and_scalars():
    assert is_array(np.zeros(2))
    assert is_array(jnp.zeros(2))
    assert not is_array(np.ndarray)
    assert not is_array(3.0)


def test_reprs_are_bounded():
    assert len(safe_repr("x" * 100_000, limit=100)) == 100
    assert len(short_repr(list(range(100_000)))) <= CELL_LIMIT
    assert truncate("abc", 3) == "abc"


def test_pretty_repr_and_type_names():
    assert safe_repr({"a": [1] * 30}, pretty=True).count("\n") > 0
    assert type_name(3) == "int"
    assert type_name(np.zeros(1)) == "ndarray"
    assert type_name(jnp.zeros(1)) == "Array"


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float16"])
def test_low_precision_floats_get_statistics_and_nan_counts(dtype):
    data = jnp.array([1.0, 2.0, 3.0, float("nan")], dtype=dtype)
    summary = array_summary(data)
    assert summary["dtype"] == dtype
    assert (summary["min"], summary["max"], summary["mean"]) == (1, 3, 2)
    assert summary["nan"] == 1


@pytest.mark.parametrize("dtype", ["int4", "uint4"])
def test_four_bit_integers_get_statistics(dtype):
    summary = array_summary(jnp.array([1, 2, 3, 6], dtype=dtype))
    assert (summary["min"], summary["max"], summary["mean"], summary["nan"]) == (1, 6, 3, 0)


def test_a_long_result_is_cut_once_with_the_exact_count_and_whole_numbers():
    full = repr(list(range(20000)))
    session = Session([CoreLikeFrame("/w/a.py", 1, "f", {})])
    session.run("p list(range(20000))")
    text = ViewBuilder(session).build()["transcript"][-1]["output"]
    assert len(text) <= RESULT_LIMIT and text.count("more characters]") == 1
    kept, note = text.split("... [")
    assert full.startswith(kept) and kept.endswith(", ")
    assert int(note.split()[0].replace(",", "")) == len(full) - len(kept)
    again = truncate(text, 500)
    kept_again, note_again = again.split("... [")
    assert int(note_again.split()[0].replace(",", "")) == len(full) - len(kept_again)

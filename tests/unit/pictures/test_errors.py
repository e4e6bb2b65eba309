"""``show`` draws any finite range and refuses bad options and dead arrays with clear errors."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.pictures.scale import LEVELS


@pytest.mark.parametrize(
    "values",
    [
        np.array([-1e308, 1e308, 0.0]),
        np.array([-np.finfo(np.float64).max, np.finfo(np.float64).max]),
        np.array([[-1e308, 1e308], [0.0, 5.0]]),
    ],
)
def test_a_range_wider_than_float64_reaches_is_drawn_end_to_end(values):
    pictures = jdw.show(values, line=True)
    [picture] = pictures.pictures
    assert sum(picture.histogram.counts) == values.size
    assert picture.histogram.edges[0] == values.min()
    assert picture.histogram.edges[-1] == values.max()
    levels = picture.scale.levels(np.array([values.min(), 0.0, values.max()]))
    assert levels.tolist() == [0, (LEVELS - 1) // 2, LEVELS - 1]
    assert picture.stats.mean == pytest.approx(float(np.mean(values / values.size) * values.size))
    assert "nan" not in pictures.to_text().lower() and pictures.to_html()


def test_the_mean_of_values_whose_sum_overflows_is_finite():
    [picture] = jdw.show(np.array([1e308, 1e308, np.nan])).pictures
    assert picture.stats.mean == pytest.approx(1e308)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"vmin": 5, "vmax": 1}, ValueError, "vmin must be below vmax, got vmin=5 and vmax=1"),
        ({"vmin": 1.0, "vmax": 1.0}, ValueError, "vmin must be below vmax"),
        ({"vmin": float("nan")}, ValueError, "vmin must be a finite number, got nan"),
        ({"vmax": float("inf")}, ValueError, "vmax must be a finite number, got inf"),
        ({"vmax": "3"}, TypeError, "vmax must be a real number or None, got str"),
    ],
)
def test_bad_scale_ends_are_refused_with_what_is_wrong(options, error, message):
    with pytest.raises(error, match=message):
        jdw.show(np.arange(4.0), **options)


def test_a_deleted_array_is_named_as_deleted_or_donated():
    x = jnp.arange(4.0)
    x.delete()
    with pytest.raises(RuntimeError, match=r"the root \(float32\[4\]\): it was deleted or donated"):
        jdw.show(x)


def test_a_donated_array_in_a_pytree_is_named_by_its_path():
    y = jnp.arange(4.0)
    jax.jit(lambda a: a + 1, donate_argnums=0)(y)
    if not y.is_deleted():
        pytest.skip("this backend ignored the donation")
    with pytest.raises(RuntimeError, match=r"\['y'\] .* deleted or donated .*donate_argnums"):
        jdw.show({"ok": jnp.ones(2), "y": y})


@pytest.mark.parametrize(
    "values",
    [np.full(3, 1e20), np.full(2, 1e308), np.full(2, 3e38, np.float32), np.full(2, 2**62)],
)
def test_a_large_constant_is_one_histogram_bin(values):
    [picture] = jdw.show(values).pictures
    assert picture.histogram.counts == (values.size,)
    assert picture.histogram.edges == (float(values[0]), float(values[0]))

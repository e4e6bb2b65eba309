"""A long loop runs compiled up to its first bad iteration, which is then opened as before."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from jaxdbg_widgets.nans import find_nonfinite, search
from tests.unit.nans import cases


def test_a_nan_at_iteration_19991_of_20000_is_named_with_its_line():
    report = find_nonfinite(jax.jit(cases.long_fori), 0.0, 20000)
    assert report.origin.path == ("while iteration 19991",)
    assert "jnp.log(19991.0 - i)" in report.origin.source.text
    assert report.nan_origin.path == ("while iteration 19992",)
    assert report.equations_checked > 19991  # every iteration before it counted


def test_a_long_loop_that_stays_finite_is_reported_finite():
    assert find_nonfinite(cases.long_fori, 0.0, 5000).origin is None


def test_past_an_iteration_whose_infinity_a_constant_brought_the_search_goes_on():
    report = find_nonfinite(cases.masked_then_log, jnp.arange(100.0))
    assert search.FAST_AFTER < 50
    assert (report.origin.primitive, report.origin.path) == ("log", ("scan iteration 70",))


def test_a_reversed_scan_is_read_from_its_end():
    def body(carry, x):
        return carry + jnp.log(x - 5.0), None  # reversed: x = 5 comes before x = 4

    report = find_nonfinite(lambda xs: lax.scan(body, 0.0, xs, reverse=True)[0], jnp.arange(100.0))
    assert report.origin.path == ("scan iteration 5",)
    assert report.nan_origin.path == ("scan iteration 4",)


def test_the_iterations_before_the_bad_one_are_not_dispatched_one_by_one(monkeypatch):
    calls = {"n": 0}
    run = search.Level.run

    def counted(self, *args, **kwargs):
        calls["n"] += 1
        return run(self, *args, **kwargs)

    monkeypatch.setattr(search.Level, "run", counted)
    find_nonfinite(jax.jit(cases.long_fori), 0.0, 20000)
    assert calls["n"] < 10  # not one call per iteration (20,000)

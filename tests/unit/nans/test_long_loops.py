"""A long loop runs compiled up to its first bad iteration, which is then opened as before."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from jaxdbg_widgets.nans import find_nonfinite, loops
from jaxdbg_widgets.nans.program import Level
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
    assert loops.FAST_AFTER < 50
    assert (report.origin.primitive, report.origin.path) == ("log", ("scan iteration 70",))


def test_a_reversed_scan_is_read_from_its_end():
    def body(carry, x):
        return carry + jnp.log(x - 5.0), None  # reversed: x = 5 comes before x = 4

    report = find_nonfinite(lambda xs: lax.scan(body, 0.0, xs, reverse=True)[0], jnp.arange(100.0))
    assert report.origin.path == ("scan iteration 5",)
    assert report.nan_origin.path == ("scan iteration 4",)


def test_the_iterations_before_the_bad_one_are_not_dispatched_one_by_one(monkeypatch):
    calls = {"n": 0}
    run = Level.run

    def counted(self, *args, **kwargs):
        calls["n"] += 1
        return run(self, *args, **kwargs)

    monkeypatch.setattr(Level, "run", counted)
    find_nonfinite(jax.jit(cases.long_fori), 0.0, 20000)
    assert calls["n"] < 10  # not one call per iteration (20,000)


def _bad_positions(summary) -> set[tuple[int, ...]]:
    return set(summary.first_nan) | set(summary.first_neginf) | set(summary.first_posinf)


@pytest.mark.parametrize("reverse", [False, True])
def test_a_finite_scan_hands_its_carry_and_stacked_outputs_on_in_place(reverse):
    def program(xs):
        def body(carry, x):
            return carry + x, (carry * x, -x)

        total, (products, negated) = lax.scan(body, 1.0, xs, reverse=reverse)
        return jnp.log(products - 3.0 + negated * 0.0 + (total - 16.0))  # total: 1 + 0 + ... + 5

    xs = jnp.arange(6.0)
    expected = np.asarray(lax.scan(lambda c, x: (c + x, c * x), 1.0, xs, reverse=reverse)[1])
    report = find_nonfinite(jax.jit(program), xs)
    assert (report.origin.primitive, report.origin.path) == ("log", ())
    bad = {(int(i),) for i in np.flatnonzero(expected - 3.0 <= 0)}
    assert _bad_positions(report.origin.outputs[0]) == bad  # rows stacked where the scan puts them


def test_a_finite_while_loop_hands_its_carry_on():
    def program(x):
        count, value = lax.while_loop(lambda s: s[0] < 7, lambda s: (s[0] + 1, s[1] * 2.0), (0, x))
        return jnp.log(value - 27.0 * count)

    report = find_nonfinite(jax.jit(program), jnp.array([1.0, 1.5]))
    assert report.origin.primitive == "log"
    # the final carry: 128 - 189 < 0 < 192 - 189 (the one before it, 64 and 96 - 162, both < 0)
    assert _bad_positions(report.origin.outputs[0]) == {(0,)}


def test_a_scan_stacking_keys_is_run_whole_then_opened():
    def program(key, xs):
        def body(k, x):
            k, sub = jax.random.split(k)
            return k, (sub, jnp.log(x))

        return lax.scan(body, key, xs)[1][1]

    report = find_nonfinite(program, jax.random.key(0), jnp.array([1.0, 2.0, -1.0]))
    assert (report.origin.primitive, report.origin.path) == ("log", ("scan iteration 2",))


def test_a_nan_under_a_mask_leads_before_a_later_overflow():
    def program(s, mask, x):
        weights = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)  # row 1: all masked
        return weights.sum() + jnp.exp(x)  # exp(100) overflows, later in the program

    mask = jnp.array([[True, False], [False, False]])
    report = find_nonfinite(program, jnp.ones((2, 2)), mask, jnp.float32(100.0))
    assert report.lead == "nan"
    assert "softmax" in report.origin.source.text

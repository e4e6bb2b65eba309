"""The origin is the first bad value among those the program uses, for line and iteration."""

from __future__ import annotations

import jax.numpy as jnp
import pytest

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite
from tests.unit.nans import cases


@pytest.mark.skipif(not internals.JAXPR_DCE, reason="this JAX has no jaxpr-dce")
def test_an_unused_loss_that_overflows_first_is_not_the_origin():
    report = find_nonfinite(cases.unused_loss_loop, jnp.float32(1.0), jnp.ones(50))
    origin = report.origin
    assert (origin.primitive, origin.path) == ("mul", ("scan iteration 38",))
    assert "w = w * 10.0 * x" in origin.source.text
    assert report.dead > 0


@pytest.mark.skipif(not internals.JAXPR_DCE, reason="this JAX has no jaxpr-dce")
def test_a_finite_report_says_dead_code_was_not_searched():
    def unused_log(x):
        _unused = jnp.log(x)  # NaN, but reaches no output
        return x * 2.0

    report = find_nonfinite(unused_log, jnp.array([-1.0]))
    assert report.origin is None and report.dead == 1
    assert "1 equation(s) whose values reach no output left out" in report.to_text()


def test_a_program_without_dead_code_leaves_nothing_out():
    report = find_nonfinite(cases.scan_program, jnp.arange(6.0))
    assert report.dead == 0 and "left out" not in report.to_text()

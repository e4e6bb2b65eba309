"""An infinity a constant brings in on purpose (a mask's -inf) is the origin of nothing."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.view import report_view
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

Q = jnp.ones((3, 4))
MASK = jnp.array([[True, True, False], [False, False, False], [True, True, True]])


@pytest.mark.parametrize("jitted", [False, True], ids=["plain", "jit"])
def test_a_fully_masked_row_leads_with_the_nan_and_names_the_where_line(jitted):
    fun = jax.jit(cases.masked_attention) if jitted else cases.masked_attention
    report = find_nonfinite(fun, Q, Q, MASK)
    origin = report.origin
    assert report.lead == "nan" and report.nan_origin is None
    assert origin.primitive == "sub" and "z = s - m" in origin.source.text
    assert origin.outputs[0].first_nan == ((1, 0), (1, 1), (1, 2))
    (note,) = [n for n in origin.notes if "constant" in n]
    assert "first brought in at " in note and "s = jnp.where(mask, s, -jnp.inf)" in note
    text = report.to_text()
    assert text.splitlines()[1] == "first NaN: sub" and "(no user frame)" not in text
    assert report_view(report)["headline"].startswith("first NaN from sub at line ")
    frame = report.frames()[0]
    assert frame.source and "z = s - m" in frame.code_context[0]


def test_a_mask_in_every_layer_of_a_scan_names_the_layer_whose_row_is_fully_masked():
    full = jnp.ones((3, 3), bool)
    partial = full.at[0, 2].set(False)
    masks = jnp.stack([partial, partial, MASK, partial])
    report = find_nonfinite(cases.attention_layers, Q, Q, masks)
    assert report.lead == "nan"
    assert (report.origin.primitive, report.origin.path) == ("sub", ("scan iteration 2",))


def test_a_nan_that_only_a_constant_brings_in_is_still_reported_at_its_line():
    report = find_nonfinite(cases.nan_padding, jnp.array([1.0, -1.0]))
    assert report.found and report.lead == "constant"
    assert "jnp.where(x > 0, x, jnp.nan)" in report.origin.source.text
    assert any("a constant brought it in" in n for n in report.origin.notes)
    assert report.to_text().splitlines()[1].startswith("first non-finite value (from a constant)")


def test_an_infinity_computed_from_finite_values_still_leads():
    report = find_nonfinite(cases.scan_program, jnp.arange(6.0))
    assert report.lead == "nonfinite" and report.origin.outputs[0].neginf == 1


@pytest.mark.skipif(not recheck.available(), reason="no nan-recheck")
def test_nans_on_raises_a_masked_row_at_the_nan_line():
    undo = nans.install(None)
    nans.set_checks(True)
    try:
        with pytest.raises(FloatingPointError) as raised:
            jax.jit(cases.masked_attention)(Q, Q, MASK)
    finally:
        undo()
    first = str(raised.value).splitlines()[0]
    assert "first NaN made by sub at " in first and "z = s - m" in first
    assert raised.value.debugger_frames()[0].function == "masked_attention"

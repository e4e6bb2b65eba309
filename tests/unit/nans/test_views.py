"""The report's text, static HTML and widget, and the debugger opened at its origin."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.debugger.serve import scripts
from jaxdbg_widgets.nans import find_nonfinite
from jaxdbg_widgets.nans.html import render_html
from jaxdbg_widgets.nans.view import report_view
from tests.unit.nans import cases


@pytest.fixture(scope="module")
def scan_report():
    return find_nonfinite(cases.scan_program, jnp.arange(6.0))


def test_html_marks_the_origin_line_and_is_deterministic(scan_report):
    html = render_html(scan_report)
    assert html == render_html(scan_report)
    marked = html.split('<span class="jdw-nan-mark">')[1].split("</span>")[0]
    assert "y = jnp.log(carry - x)" in marked
    assert "scan iteration 3" in html
    assert "&gt;" in marked  # the marker is escaped like every other character


def test_html_escapes_source_text():
    def program(x):
        return jnp.log(x) if "<b>" else x

    html = render_html(find_nonfinite(program, -1.0))
    assert "<b>" not in html.replace("<b>first", "").replace("<b>first NaN", "")
    assert "&quot;&lt;b&gt;&quot;" in html


def test_view_lists_both_origins_when_an_infinity_comes_first():
    view = report_view(find_nonfinite(jax.grad(cases.sqrt_loss), jnp.array([1.0, 0.0])))
    assert [o["heading"].split(":")[0] for o in view["origins"]] == [
        "first non-finite value",
        "first NaN",
    ]
    assert view["debuggable"]


def test_widget_carries_the_view_and_its_static_twin(scan_report):
    widget = scan_report.widget()
    assert widget.view == report_view(scan_report)
    data, _ = widget._repr_mimebundle_()
    assert data["text/html"] == render_html(scan_report)
    assert "application/vnd.jupyter.widget-view+json" in data


def test_outside_a_kernel_the_report_displays_as_text_and_html(scan_report):
    bundle = scan_report._repr_mimebundle_()
    assert bundle["text/plain"] == scan_report.to_text()
    assert bundle["text/html"] == render_html(scan_report)


def test_debugger_frames_hold_the_equation_values_as_locals(scan_report):
    frames = scan_report.frames()
    top = frames[0]
    assert top.function == "scan_body"
    assert top.source[top.offset].strip().startswith("y = jnp.log(carry - x)")
    assert float(top.locals["in0"]) == 0.0 and float(top.locals["out0"]) == float("-inf")
    assert all(not f.internal and not f.locals for f in frames[1:])  # callers JAX kept


def test_the_debugger_opens_at_the_origin_and_p_reads_its_locals(scan_report, capsys):
    with scripts.script(["p out0", "pp in0", "c"]):
        scan_report.debug()
    out = capsys.readouterr().out
    assert "(jdb) p out0\narray(-inf, dtype=float32)\n" in out
    assert "(jdb) pp in0\narray(0., dtype=float32)\n" in out


def test_a_finite_report_has_nothing_to_debug():
    report = find_nonfinite(jnp.sin, jnp.ones(2))
    assert report.frames() == []
    with pytest.raises(ValueError, match="nowhere to debug"):
        report.debug()

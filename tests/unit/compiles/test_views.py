"""The text and static HTML views: what they say, escaping, and the same bytes every time."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp

from jaxdbg_widgets.compiles import CompileReport, watch_compiles
from jaxdbg_widgets.compiles.html import render_html
from jaxdbg_widgets.compiles.model import Program
from jaxdbg_widgets.compiles.signature import FunctionId, Signature, Site
from jaxdbg_widgets.compiles.text import render_text


def _report() -> CompileReport:
    with watch_compiles() as report:
        f = jax.jit(lambda batch: batch.sum())
        f(jnp.ones((32, 3)))
        f(jnp.ones((7, 3)))
    return report


def test_text_has_the_headline_the_rows_and_the_cause():
    text = str(_report())
    assert text.startswith("compiles · ")
    assert "per function and call site, most time first" in text
    assert "batch: f32[32,3] → f32[7,3]" in text
    assert "test_views.py:" in text


def test_an_empty_report_says_so():
    assert render_text(CompileReport()).endswith("nothing was traced or compiled")
    assert "nothing was traced or compiled" in render_html(CompileReport())


def test_html_is_deterministic_escaped_and_sortable():
    report = _report()
    html = report.to_html()
    assert html == report.to_html()
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", html)  # no uuid
    assert "batch: f32[32,3] → f32[7,3]" in html
    assert 'class="jdw-cmp-num jdw-cmp-s"' in html and "data-v=" in html
    bundle = report._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}


def test_names_are_escaped():
    report = CompileReport()
    site = Site("<cell>", 1, "<b>x</b>:1")
    function = FunctionId("<lambda>", site, False)
    program = report.add(Program("f", function, site, Signature(function, (), (), ())))
    report.stage(program, "trace", 0.001)
    html = render_html(report)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;:1" in html
    assert "&lt;lambda&gt;" in html


def loop(x):
    for _ in range(20):
        x = jnp.cos(x)  # the unrolled line
    return x


def test_each_function_folds_its_programs_causes_and_largest_program_lines():
    with watch_compiles() as report:
        f = jax.jit(loop)
        f(jnp.ones(2))
        f(jnp.ones(5))
    html = report.to_html()
    [section] = [s for s in html.split("<details>")[1:] if s.startswith("<summary>loop (")]
    assert "2 programs, 1 after the first" in section
    assert "x: f32[2] → f32[5]" in section
    assert '<td class="jdw-cmp-code">x = jnp.cos(x)  # the unrolled line</td>' in section
    assert ">20</td>" in section


def test_the_page_view_state_has_the_declared_shape_and_draws_after_a_restart():
    from jaxdbg_widgets.compiles import schema
    from jaxdbg_widgets.compiles.standalone import standalone_report
    from jaxdbg_widgets.compiles.view import compiles_view

    from ..widget_schema import problems

    with watch_compiles() as report:
        f = jax.jit(loop)
        f(jnp.ones(11))
        f(jnp.ones(12))
    seen: set[str] = set()
    view = compiles_view(report)
    assert problems({"view": view, "row": -1}, schema.CompilesModel, seen=seen) == []
    assert {"CompileLine.code", "CompileProgram.cause", "CompileRow.programs"} <= seen
    # the compiled program of loop (JAX 0.7 also traces jnp.cos as a jit of its own)
    [program] = [
        p for p in view["programs"] if p["cause"] == "x: f32[11] → f32[12]" and p["stages"][2]
    ]
    assert program["lines"][0]["code"] == "x = jnp.cos(x)  # the unrolled line"
    output = standalone_report(report)
    assert "application/vnd.jupyter.widget-view+json" not in output._repr_mimebundle_()
    assert 'class="jdw-standalone-static"' in output.html and "x: f32[11] → f32[12]" in output.html
    assert output.html == standalone_report(report).html  # the same bytes every time

"""The peak report's page view: its JSON (``peak_view``) holds to the schema and says what the
text says, bounded for large programs; in a notebook it is one standalone output with the text,
the static HTML twin and the state, asking the kernel nothing."""

from __future__ import annotations

import json
import re

import jax
import jax.numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.memory import peak_display, peak_schema
from jaxdbg_widgets.memory.peak import build_report
from jaxdbg_widgets.memory.peak_view import (
    LINE_BUFFERS,
    POINTS,
    TOP_BUFFERS,
    peak_view,
    timeline_points,
    variant_view,
)
from tests.unit.memory.peak_corpus import CORPUS, S, outer_sum

from ..widget_schema import problems

_STATE = re.compile(r'<script type="application/json">(.*?)</script>', re.S)


def _two_variants():
    f, args = CORPUS["scan grad"]
    return jdw.peak_memory({"plain": f, "again": f}, *args, device_memory="1 MiB")


def test_the_view_holds_to_the_schema_and_fills_every_key():
    peaks = _two_variants()
    view = peak_view(peaks)
    seen: set[str] = set()
    state = {"view": view, "variant": 0, "line": -1}
    assert problems(state, peak_schema.PeakModel, seen=seen) == []
    declared = {
        f"{t.__name__}.{key}"
        for t in (peak_schema.PeakVariant, peak_schema.PeakLine, peak_schema.PeakBufferRow)
        for key in t.__annotations__
    }
    assert declared <= seen
    json.dumps(view, allow_nan=False)  # plain JSON


def test_each_variant_says_what_the_report_says():
    peaks = _two_variants()
    report = peaks.report
    variant = peak_view(peaks)["variants"][0]
    assert [v["name"] for v in peak_view(peaks)["variants"]] == ["plain", "again"]
    assert variant["peak"] == report.peak_bytes
    assert variant["xla_peak"] == report.xla_peak_bytes
    assert variant["flops"] == report.flops and variant["flops_text"].endswith(" GFLOPs")
    assert variant["agreement"] in str(peaks)
    assert variant["fit"] == {
        "capacity": 1 << 20,
        "fits": False,
        "text": variant["fit"]["text"],
    }
    assert variant["fit"]["text"] in str(peaks) and "does NOT fit" in variant["fit"]["text"]
    assert [line["bytes"] for line in variant["lines"]] == [s.nbytes for s in report.lines]
    top = variant["lines"][0]
    assert "jax.lax.scan(body, x, ws)" in top["code"]
    assert sum(variant["buffers"][i]["bytes"] for i in top["buffers"]) == top["bytes"]
    assert [b["bytes"] for b in variant["buffers"][: variant["top"]]] == [
        b.nbytes for b in report.buffers
    ]
    assert variant["timeline"] == list(enumerate(report.timeline))
    assert variant["steps"] == len(report.timeline)
    assert variant["peak_step"] == report.peak_step


def test_no_fit_without_device_memory_and_no_xla_figure_where_xla_gives_none():
    f, args = CORPUS["outer"]
    text = jax.jit(f).lower(*args).compile().as_text()
    variant = variant_view(build_report("outer", text, None))
    assert variant["fit"] is None
    assert variant["xla_peak"] is None and variant["xla_text"] == "not reported"
    assert variant["agrees"] is None


def test_a_long_timeline_keeps_its_peak_and_at_most_points():
    timeline = tuple((i * 7919) % 1000 for i in range(10_000)) + (5000,) + (1,) * 99
    points = timeline_points(timeline)
    assert len(points) == POINTS
    assert (10_000, 5000) in points
    steps = [step for step, _ in points]
    assert steps == sorted(steps)
    assert all(timeline[step] == value for step, value in points)
    assert timeline_points((3, 4)) == [(0, 3), (1, 4)]


def test_what_is_carried_is_bounded():
    from dataclasses import replace

    f, args = CORPUS["scan grad"]
    report = jdw.peak_memory(f, *args).report
    many = report.buffers * 40
    lines = (replace(report.lines[0], buffers=tuple(range(len(many)))),)
    big = replace(report, buffers=many, lines=lines)
    variant = variant_view(big)
    assert variant["top"] == TOP_BUFFERS and variant["more_buffers"] == len(many) - TOP_BUFFERS
    assert len(variant["lines"][0]["buffers"]) == LINE_BUFFERS
    assert variant["lines"][0]["more"] == len(many) - LINE_BUFFERS
    assert len(variant["buffers"]) == max(TOP_BUFFERS, LINE_BUFFERS)


def test_in_a_notebook_it_is_one_standalone_output(monkeypatch):
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)
    peaks = jdw.peak_memory(outer_sum, S((256,), jnp.float32))
    bundle = peaks._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == peaks.to_text()
    html = bundle["text/html"]
    assert html.startswith('<div class="jdw-standalone"><div class="jdw-standalone-static">')
    assert peaks.to_html() in html  # the static twin, for where scripts do not run
    assert ".jdw-pk-bar" in html  # the view's stylesheet
    [payload] = _STATE.findall(html)
    state = json.loads(payload)["state"]
    shown = json.loads(json.dumps(peak_view(peaks)))
    assert state == {"view": shown, "variant": 0, "line": -1}
    assert "derived" not in json.loads(payload)  # nothing to ask the kernel
    assert (
        html == jdw.peak_memory(outer_sum, S((256,), jnp.float32))._repr_mimebundle_()["text/html"]
    )  # deterministic, so nbval compares it


def test_peak_memory_has_no_widget_stub():
    assert not hasattr(peak_display.PeakMemory, "widget")

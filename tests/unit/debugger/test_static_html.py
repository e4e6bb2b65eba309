"""The static HTML fallback shows the transcript and escapes every program string."""

from __future__ import annotations

from jaxdbg_widgets.debugger.session import Session
from jaxdbg_widgets.debugger.shard_session import ShardSession
from jaxdbg_widgets.debugger.static_html import render
from jaxdbg_widgets.debugger.view import ShardViewBuilder, ViewBuilder

from .conftest import CoreLikeFrame

XSS = "<img src=x onerror=alert(1)>"
SRC = ["def f(x):", "    y = x + 1", "    breakpoint()", "    return y"]


def test_fallback_shows_location_transcript_and_status_escaped():
    frame = CoreLikeFrame(f"/work/{XSS}.py", 3, XSS, {XSS: XSS}, source=[XSS], offset=0)
    session = Session([frame])
    session.run(f"p {XSS!r}")
    session.run("p undefined_name")
    session.run("c")
    html = render(ViewBuilder(session).build("continue"))
    assert "<img" not in html
    assert html.count("&lt;img src=x onerror=alert(1)&gt;") >= 4
    assert "continued" in html
    assert "NameError" in html


def test_saved_transcript_keeps_frame_steps_to_one_line_and_aligns_locals():
    frames = [
        CoreLikeFrame(
            "/w/a.py", 3, "inner", {"a_long_name": 1, "b": "x" * 80}, source=SRC, offset=2
        ),
        CoreLikeFrame("/w/b.py", 9, "outer", {"z": 2}, source=SRC, offset=1),
    ]
    session = Session(frames)
    session.run("u")
    session.run("d")
    html = render(ViewBuilder(session).build())
    assert html.count("&gt; /w/") == 2, "each step shows only where it went"
    assert "-&gt;" not in html, "no source listing in the saved transcript"
    cells = html.count("<td style=")
    assert cells == html.count("<td") and html.count("text-align:left") == cells


def test_saved_shard_session_lists_devices_and_marks_the_differing_compare_value():
    shards = ShardSession(expected=3, axis_sizes=(3,))
    for index in range(3):
        frame = CoreLikeFrame("/w/a.py", 3, "body", {"y": 1 if index != 1 else XSS})
        shards.add(Session([frame], device=f"CPU {index} (x={index})"))
    shards.run("compare y")
    shards.run("c")
    html = render(ShardViewBuilder(shards).build("continue"))
    assert "<img" not in html
    assert "3 of 3 shards; compare y" in html
    assert all(f"CPU {i} (x={i})</td>" in html for i in range(3))
    assert "! 1</td>" in html and "! 0</td>" not in html

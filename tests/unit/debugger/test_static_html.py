"""The static HTML fallback shows the transcript and escapes every program string."""

from __future__ import annotations

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import ShardViewBuilder, ViewBuilder
from jaxdbg_widgets.debugger.widget.static_html import render
from jaxdbg_widgets.pictures.row import row_pictures

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


def test_the_saved_header_names_what_stopped():
    frame = CoreLikeFrame("/work/m.py", 3, "f", {}, source=SRC, offset=0)
    assert "breakpoint #4" in render(ViewBuilder(Session([frame], hit=4)).build())
    post_mortem = render(ViewBuilder(Session([frame], stop="post-mortem")).build())
    assert "post-mortem" in post_mortem and "breakpoint #" not in post_mortem


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
    shards = ShardSession(draw_values=row_pictures, expected=3, axis_sizes=(3,))
    for index in range(3):
        frame = CoreLikeFrame("/w/a.py", 3, "body", {"y": 1 if index != 1 else XSS})
        shards.add(Session([frame], shard=ShardPlace((("x", index),), f"CPU {index}")))
    shards.run("compare y")
    shards.run("c")
    html = render(ShardViewBuilder(shards).build("continue"))
    assert "<img" not in html
    assert "3 of 3 shards" in html and "shards 0–2: continued" in html
    assert "compare y" in html and "shards 0, 2: 1" in html
    assert "! shard 1: " in html and "shard 1 differs: " in html


def test_saved_record_of_an_interrupted_256_device_session_is_a_few_lines():
    shards = ShardSession(draw_values=row_pictures, expected=256, axis_sizes=(256,))
    for index in range(256):
        frame = CoreLikeFrame("/w/a.py", 3, "body", {"y": float(index == 216)})
        shards.add(Session([frame], shard=ShardPlace((("x", index),), f"CPU {index}")))
    shards.run("compare y")
    html = render(ShardViewBuilder(shards).build("interrupted"))
    assert "shards 0–255: interrupted" in html and "waiting" not in html
    assert "shards 0–215, 217–255: 0.0" in html and "! shard 216: 1.0" in html
    assert "CPU 17" not in html, "no row per device"
    assert len(html) < 6000


def test_saved_transcript_keeps_device_picks_to_where_they_went_and_cuts_long_listings():
    shards = ShardSession(draw_values=row_pictures, expected=40, axis_sizes=(40,))
    for index in range(40):
        frame = CoreLikeFrame("/w/a.py", 2, "body", {"y": index}, source=SRC, offset=1)
        shards.add(Session([frame], shard=ShardPlace((("x", index),), f"CPU {index}")))
    shards.run("dev 3")
    shards.run("dev")
    html = render(ShardViewBuilder(shards).build("continue"))
    assert "CPU 3, x=3, shard 3 (waiting)\n&gt; /w/a.py(2)</pre>" in html, "no source listing"
    assert "CPU 7, x=7, shard 7" in html and "CPU 8, x=8, shard 8" not in html
    assert "... (32 more shards)" in html

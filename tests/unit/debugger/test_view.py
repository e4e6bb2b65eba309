"""The JSON view state: complete, escaped, and under 64 KB whatever the program holds."""

from __future__ import annotations

import json

import numpy as np

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import VIEW_LIMIT, ShardViewBuilder, ViewBuilder, size_of
from jaxdbg_widgets.pictures.row import row_pictures

from .conftest import CoreLikeFrame, jax_frames

XSS = "<img src=x onerror=alert(1)>"


def test_view_has_header_frames_source_locals_and_transcript(frames):
    session = Session(frames, hit=2)
    session.run("p y")
    view = ViewBuilder(session).build()
    json.dumps(view)
    assert view["status"] == "waiting"
    assert view["header"]["function"] == "step"
    assert view["header"]["line"] == 12
    assert view["header"]["stop"] == "breakpoint #2"
    assert view["header"]["thread"] == "main thread"
    assert [f["function"] for f in view["frames"]] == ["step", "run"]
    assert view["internal_count"] == 1
    assert view["source"]["first"] == 10
    assert view["source"]["current"] == 2
    assert "breakpoint" in view["source"]["lines"][2]
    names = [row["name"] for row in view["locals"]]
    assert names == ["x", "scale", "y"]
    assert view["transcript"] == [{"command": "p y", "output": "6.0", "error": False}]


def test_array_locals_are_summarized_not_sent():
    session = Session(jax_frames(big=np.ones((2000, 2000), dtype=np.float32)))
    view = ViewBuilder(session).build()
    row = view["locals"][0]
    assert row["summary"]["shape"] == [2000, 2000]
    assert row["summary"]["mean"] == 1
    assert size_of(view) < 4_000


def test_source_is_escaped_html():
    frame = CoreLikeFrame("/work/m.py", 1, "f", {"s": XSS}, source=[f"s = {XSS!r}"], offset=0)
    view = ViewBuilder(Session([frame])).build()
    html = view["source"]["lines"][0]
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_view_stays_under_the_limit_with_adversarial_content():
    many_locals = {f"v{i}_{'n' * 200}": "y" * 10_000 for i in range(500)}
    many_locals["arr"] = np.zeros((4000, 4000), dtype=np.float32)
    long_source = ["+".join(["a"] * 200)] * 400
    frames = [
        CoreLikeFrame(
            f"/work/{'d' * 300}/m{i}.py",
            200,
            "f" * 300,
            many_locals,
            source=long_source,
            offset=199,
        )
        for i in range(300)
    ]
    session = Session(frames)
    for i in range(300):
        session.run(f"p {'v' + str(i % 7) + '_' + 'n' * 200}")
        session.run("p 'z' * 100000")
    view = ViewBuilder(session).build()
    assert size_of(view) <= VIEW_LIMIT
    assert view["source"]["current"] is not None
    assert view["transcript"]


def test_many_locals_are_capped_with_a_count():
    session = Session(jax_frames(**{f"v{i}": i for i in range(200)}))
    rows = ViewBuilder(session).build()["locals"]
    assert rows[-1]["more"] == 200 - (len(rows) - 1)


def test_private_names_and_modules_are_hidden():
    session = Session(jax_frames(_hidden=1, np=np, In=[], shown=2))
    assert [r["name"] for r in ViewBuilder(session).build()["locals"]] == ["shown"]


def test_batched_locals_follow_the_selected_element():
    frame = CoreLikeFrame(
        "/work/m.py",
        1,
        "f",
        {"x": np.array([[1.0, 2.0], [3.0, 4.0]])},
        source=["f()"],
        offset=0,
        batched=("x",),
    )
    session = Session([frame], batch_size=2)
    builder = ViewBuilder(session)
    assert builder.build()["locals"][0]["summary"]["mean"] == 1.5
    session.select_batch(1)
    view = builder.build()
    assert view["locals"][0]["summary"]["mean"] == 3.5
    assert view["locals"][0]["batched"]
    assert view["header"]["batch"] == {"index": 1, "size": 2, "element": 1}


def test_status_is_carried(frames):
    assert ViewBuilder(Session(frames)).build("quit")["status"] == "quit"


def test_a_session_without_frames_still_answers_and_renders():
    session = Session([])
    assert session.run("p 1 + 1").error
    assert session.run("w").output == "Traceback:"
    assert session.run("l").output == "> <no frames>"
    view = ViewBuilder(session).build()
    assert view["frames"] == [] and view["source"] is None and view["locals"] == []
    assert view["header"]["location"] == "<no frames>"


def test_header_batch_is_the_real_element_of_the_whole_batch():
    frame = CoreLikeFrame("/w/m.py", 1, "f", {"x": np.arange(3)}, batched=("x",))
    session = Session([frame], batch_size=3, batch_indices=[2, 3, 4], batch_total=5)
    session.select_batch(3)
    assert ViewBuilder(session).build()["header"]["batch"] == {
        "index": 3,
        "size": 5,
        "element": 3,
    }


def _shard_session(
    count: int, *, place=lambda i: ShardPlace((("x", i),), f"CPU {i}")
) -> ShardSession:
    shards = ShardSession(draw_values=row_pictures, expected=count, axis_sizes=(count,))
    for index in range(count):
        shards.add(Session(jax_frames(x=index, y=np.full(64, index)), shard=place(index)))
    return shards


def test_shard_view_has_the_selected_shard_and_the_device_selector():
    shards = _shard_session(8)
    shards.run("dev 3")
    view = ShardViewBuilder(shards).build()
    block = view["shards"]
    assert (block["expected"], block["arrived"], block["waiting"], block["selected"]) == (
        8,
        8,
        8,
        3,
    )
    assert block["devices"][3] == {"label": "CPU 3 (x=3)", "index": 3, "state": "waiting"}
    assert view["header"]["thread"] == "main thread, CPU 3 (x=3)"
    # the session's number, whichever shard is shown
    assert view["header"]["stop"] == "breakpoint #1"
    assert view["locals"][0]["repr"] == "3"
    assert view["transcript"][-1]["command"] == "dev 3"
    assert view["history"] == ["dev 3"]
    assert block["compare"] is None


def test_shard_view_shows_compare_rows_and_released_shards():
    shards = _shard_session(4)
    shards.run("compare x == 2")
    shards.run("c 0")
    block = ShardViewBuilder(shards).build()["shards"]
    assert [d["state"] for d in block["devices"]] == ["continue", "waiting", "waiting", "waiting"]
    compare = block["compare"]
    assert compare["expression"] == "x == 2"
    assert [r["value"] for r in compare["rows"]] == ["(continued)", "False", "True", "False"]
    assert compare["differing"] == 1


def test_an_interrupted_shard_view_shows_no_shard_still_waiting():
    shards = _shard_session(3)
    shards.run("c 0")
    block = ShardViewBuilder(shards).build("interrupted")["shards"]
    assert [d["state"] for d in block["devices"]] == ["continue", "interrupted", "interrupted"]
    typed = ShardViewBuilder(shards).build("typed prompt")["shards"]
    assert [d["state"] for d in typed["devices"]] == ["continue", "waiting", "waiting"]


def test_shard_view_compare_has_its_groups_and_verdict():
    shards = _shard_session(8)
    shards.run("compare x == 5")
    compare = ShardViewBuilder(shards).build()["shards"]["compare"]
    assert compare["verdict"] == "shard 5 differs: True, 7 others False"
    assert compare["groups"] == [
        {
            "shards": "shards 0–4, 6–7",
            "count": 7,
            "value": "False",
            "error": False,
            "differs": False,
        },
        {"shards": "shard 5", "count": 1, "value": "True", "error": False, "differs": True},
    ]


def test_shard_view_labels_vmap_elements():
    shards = _shard_session(2, place=lambda i: ShardPlace((("x", 0),), element=i))
    assert [d.get("element") for d in ShardViewBuilder(shards).build()["shards"]["devices"]] == [
        0,
        1,
    ]


def test_shard_view_of_256_devices_stays_under_the_budget():
    shards = _shard_session(256)
    shards.run("compare str(y) * 3")
    view = ShardViewBuilder(shards).build()
    assert size_of(view) <= VIEW_LIMIT
    assert len(view["shards"]["devices"]) == 256
    assert len(view["shards"]["compare"]["rows"]) == 256

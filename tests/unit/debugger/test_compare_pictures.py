"""A shard session's compare of arrays as a row of pictures on one colour scale: which shards
are drawn, the cap, the fall back to the table, the view block and the static twin."""

from __future__ import annotations

import json

import numpy as np

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.compare_pictures import (
    PICTURES_SHOWN,
    Drawable,
    chosen_pictures,
    compare_pictures,
    drawable,
)
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import VIEW_LIMIT, ShardViewBuilder, size_of
from jaxdbg_widgets.debugger.widget import static_html
from jaxdbg_widgets.pictures.row import row_pictures

from ..pictures.test_row import _png
from .conftest import jax_frames


def _shards(values: list) -> ShardSession:
    shards = ShardSession(draw_values=row_pictures, expected=len(values), axis_sizes=(len(values),))
    for index, value in enumerate(values):
        place = ShardPlace((("x", index),), f"CPU {index}")
        shards.add(Session(jax_frames(x=value), thread_id=index, shard=place))
    return shards


def _row(shards: ShardSession, expression: str = "x") -> dict | None:
    apply_message(shards, {"type": "compare", "expression": expression})
    return ShardViewBuilder(shards).build()["shards"]["compare"]["pictures"]


def test_each_shard_is_drawn_on_one_scale_stated_in_the_block():
    small = np.array([[0.0, 1.0], [0.5, 0.25]], np.float32)
    large = np.array([[0.0, 10.0], [5.0, 1.0]], np.float32)
    row = _row(_shards([small, large, large, large]))
    assert row["scale"]["text"] == "one scale: min 0 … max 10"
    assert [t["label"] for t in row["tiles"]] == [f"CPU {i} (x={i})" for i in range(4)]
    assert [t["position"] for t in row["tiles"]] == [0, 1, 2, 3]
    assert [t["differs"] for t in row["tiles"]] == [True, False, False, False]
    assert row["tiles"][0]["summary"] == "float32[2, 2], min 0, max 1"
    pixels = [_png(t["png"])[1] for t in row["tiles"][:2]]
    assert not (pixels[0][0, 1] == pixels[1][0, 1]).all(), "1 and 10 differ on one scale"
    assert (pixels[0][0, 1] == pixels[1][1, 1]).all(), "and 1 is 1 in both pictures"
    assert row["more"] == ""


def test_past_the_cap_differing_groups_come_first_and_the_rest_are_counted():
    values = [np.zeros(3)] * 20 + [np.full(3, float(i + 1)) for i in range(40)]
    row = _row(_shards(values))
    tiles = row["tiles"]
    assert len(tiles) == PICTURES_SHOWN
    assert all(t["differs"] and t["count"] == 1 for t in tiles)
    assert row["more"] == "25 more groups (44 shards)"
    assert row["scale"]["text"] == "one scale: min 0 … max 40", "the scale covers every shard"


def test_one_bad_shard_among_many_is_one_picture_beside_its_group():
    values = [np.ones((2, 2))] * 40
    values[5] = np.array([[1.0, np.nan], [1.0, 1.0]])
    row = _row(_shards(values))
    assert [(t["label"], t["count"], t["differs"]) for t in row["tiles"]] == [
        ("CPU 5 (x=5)", 1, True),
        ("shards 0–4, 6–39", 39, False),
    ]
    assert row["tiles"][1]["position"] == 0, "a group's picture selects its first shard"
    assert row["more"] == ""


def test_scalars_mixed_shapes_errors_and_text_keep_the_table_only():
    assert _row(_shards([1.0, 2.0])) is None
    assert _row(_shards([np.zeros(2), np.zeros(3)])) is None
    assert _row(_shards([np.zeros(2), np.zeros((1, 2))])) is None
    assert _row(_shards([np.zeros(2), np.ones(2)]), "x if x.sum() else 1 / 0") is None
    assert _row(_shards([np.array(["a"]), np.array(["b"])])) is None
    compared = _shards([np.zeros(2), np.zeros(3)])
    apply_message(compared, {"type": "compare", "expression": "x"})
    assert len(ShardViewBuilder(compared).build()["shards"]["compare"]["rows"]) == 2


def test_a_continued_shard_keeps_its_picture_and_the_marks_are_redone():
    shards = _shards([np.zeros(2), np.zeros(2), np.ones(2)])
    assert [t["differs"] for t in _row(shards)["tiles"]] == [False, False, True]
    shards.run("c 2")
    row = ShardViewBuilder(shards).build()["shards"]["compare"]["pictures"]
    assert [t["differs"] for t in row["tiles"]] == [False, False, False]
    assert len(row["tiles"]) == 3


def test_the_block_is_plain_deterministic_json_and_the_static_twin_shows_the_row():
    shards = _shards([np.eye(3), np.eye(3) * 4])
    _row(shards)
    first, second = ShardViewBuilder(shards).build(), ShardViewBuilder(shards).build()
    assert json.dumps(first) == json.dumps(second)
    html = static_html.render(first)
    assert "one scale: min 0 … max 4" in html
    assert html.count('<img src="data:image/png;base64,') == 2
    assert 'alt="CPU 1 (x=1): float64[3, 3], min 0, max 4"' in html


def test_a_tight_byte_budget_drops_the_pictures_before_the_rest():
    shards = _shards([np.random.default_rng(i).random((64, 64)) for i in range(16)])
    _row(shards)
    full = ShardViewBuilder(shards).build()
    assert size_of(full) < 64 * 1024
    tight = ShardViewBuilder(shards, limit=size_of(full) - 1000).build()
    assert tight["shards"]["compare"]["pictures"] is None
    assert len(tight["shards"]["compare"]["rows"]) == 16


def test_at_256_different_shards_the_row_stays_within_the_view_budget():
    rng = np.random.default_rng(0)
    shards = _shards([rng.random((64, 64), np.float32) for _ in range(256)])
    row = _row(shards)
    assert row is not None and len(row["tiles"]) == PICTURES_SHOWN
    assert row["more"] == "240 more groups (240 shards)"
    assert size_of(ShardViewBuilder(shards).build()) <= VIEW_LIMIT


def test_a_value_known_by_its_plain_shape_and_extent_chooses_the_same_row():
    values = [np.arange(4.0).reshape(2, 2) * i for i in range(3)]
    shards = _shards(values)
    rows = shards.compare("x")
    plain = [json.loads(json.dumps(drawable(v).plain())) for v in values]
    drawn = []

    def draw(positions, scale):
        drawn.append(list(positions))
        return row_pictures([values[p] for p in positions], scale)

    remote = chosen_pictures(rows, [Drawable.from_plain(p) for p in plain], draw)
    assert remote == compare_pictures(rows, values, row_pictures) and drawn == [[0, 1, 2]]
    assert drawable(np.float32(1.0)) is None and drawable("text") is None

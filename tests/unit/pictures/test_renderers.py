"""The view, static HTML, text and widget of pictures: deterministic, complete and answering."""

from __future__ import annotations

import base64
import re
import zlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxdbg_widgets.pictures import show
from jaxdbg_widgets.pictures.png import palette_png
from jaxdbg_widgets.pictures.scale import NAN, NEGINF, POSINF
from jaxdbg_widgets.pictures.view import picture_view


def _png_indices(uri: str) -> np.ndarray:
    """Decode our palette PNG (filter 0 rows) back to its palette indices."""
    raw = base64.b64decode(uri.split(",", 1)[1])
    pos, width, height, data = 8, 0, 0, b""
    while pos < len(raw):
        length = int.from_bytes(raw[pos : pos + 4], "big")
        kind, body = raw[pos + 4 : pos + 8], raw[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
        if kind == b"IDAT":
            data += body
        pos += 12 + length
    rows = np.frombuffer(zlib.decompress(data), dtype=np.uint8).reshape(height, width + 1)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:]


def _values():
    values = np.random.default_rng(1).normal(size=(40, 30)).astype(np.float32)
    values[3, 4], values[10, 11], values[20, 21] = np.nan, np.inf, -np.inf
    return values


def test_the_png_carries_each_special_value_in_its_own_colour_where_it_is():
    view = show(_values()).pictures[0]
    indices = _png_indices(picture_view(view)["panels"][0]["png"])
    assert indices.shape == (40, 30)
    assert indices[3, 4] == NAN and indices[10, 11] == POSINF and indices[20, 21] == NEGINF
    assert (indices < NAN).sum() == 40 * 30 - 3


def test_palette_png_refuses_what_it_cannot_encode():
    with pytest.raises(ValueError):
        palette_png(np.zeros((2, 2), dtype=np.int32), b"")


def test_the_view_and_html_are_the_same_bytes_every_time_and_carry_no_ids():
    first = show({"a": _values(), "b": np.arange(5)}).to_html()
    assert first == show({"a": _values(), "b": np.arange(5)}).to_html()
    assert not re.search(r'\bid="', first)


def test_the_html_has_the_image_legend_histogram_and_an_aria_label():
    html = show(_values()).to_html()
    assert html.count("<img ") == 1 and "data:image/png;base64," in html
    assert 'aria-label="picture of float32[40, 30], min ' in html
    assert "NaN 1" in html and "+Inf 1" in html and "-Inf 1" in html
    assert "histogram of finite values" in html and "<rect " in html
    assert "linear-gradient(to right," in html


def test_small_panels_carry_exact_values_and_large_ones_do_not():
    small = picture_view(show(np.arange(6, dtype=np.int8).reshape(2, 3)).pictures[0])
    assert small["panels"][0]["values"] == ["0", "1", "2", "3", "4", "5"]
    big = picture_view(show(np.zeros((1000, 1000), np.float32)).pictures[0])
    assert big["panels"][0]["values"] is None and tuple(big["factor"]) == (3, 3)
    assert any("reduced 3×3" in line for line in big["summary"])


def test_the_reduced_1m_picture_stays_small():
    html = show(np.random.default_rng(0).normal(size=(1000, 1000)).astype(np.float32)).to_html()
    assert len(html) < 530_000  # a tenth of treescope's 5.3 MB for the same array


def test_a_scalar_shows_its_value_and_a_strip_its_line():
    view = show({"s": np.float32(2.5), "v": np.array([1.0, np.nan, 3.0, 4.0])}, line=True)
    scalar, strip = (picture_view(p) for p in view.pictures)
    assert scalar["scalar"] == "2.5" and scalar["panels"] == []
    assert strip["line"] == [1.0, None, 3.0, 4.0]
    assert "<polyline " in view.to_html()


def test_sharded_pictures_draw_each_shard_box_with_its_devices():
    mesh = jax.make_mesh((4, 2), ("x", "y"))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x", "y"))
    array = jax.device_put(jnp.arange(64.0 * 32).reshape(64, 32), sharding)
    pictures = show(array)
    view = picture_view(pictures.pictures[0])
    assert len(view["shards"]) == 8 and view["panels"][0]["shards"] == list(range(8))
    assert sorted(d for s in view["shards"] for d in s["devices"]) == list(range(8))
    html = pictures.to_html()
    assert html.count('class="jdw-pic-shard"') == 8
    assert "sharded P(&#x27;x&#x27;, &#x27;y&#x27;) over 8 devices" in html


def test_text_names_the_extremes_counts_and_marks_specials_in_the_sketch():
    text = show(_values()).to_text()
    assert "float32[40, 30]" in text and "NaN 1 · +Inf 1 · -Inf 1" in text
    assert "N" in text.split("\n", 3)[3]


def test_a_lone_special_value_gets_a_ring_in_its_colour_and_many_get_none():
    values = np.zeros((3000, 2000), dtype=np.float32)
    values[2999, 1], values[10, 1500] = np.nan, -np.inf
    view = picture_view(show(values).pictures[0])
    down, across = view["factor"]
    assert sorted(view["panels"][0]["marks"]) == sorted(
        [(2999 // down, 1 // across, 0), (10 // down, 1500 // across, 2)]
    )
    html = show(values).to_html()
    assert html.count('class="jdw-pic-mark"') == 2
    assert f"border:2px solid {view['specials'][0]['color']}" in html
    crowded = np.full((100, 100), np.nan, dtype=np.float32)
    assert picture_view(show(crowded).pictures[0])["panels"][0]["marks"] == []

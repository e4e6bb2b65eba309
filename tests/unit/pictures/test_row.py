"""Several arrays on one colour scale: the same value is the same colour in every picture."""

from __future__ import annotations

import base64
import zlib

import numpy as np
import pytest

from jaxdbg_widgets.pictures.colors import special_colors
from jaxdbg_widgets.pictures.extent import Extent, extent, scale_over, shared_scale
from jaxdbg_widgets.pictures.row import ROW_CELLS, ROW_LEVELS, ROW_SIDE, row_pictures


def _png(uri: str) -> tuple[np.ndarray, np.ndarray]:
    """Our palette PNG decoded: its palette indices and its RGB pixels."""
    raw = base64.b64decode(uri.split(",", 1)[1])
    pos, width, height, data, colours = 8, 0, 0, b"", b""
    while pos < len(raw):
        length = int.from_bytes(raw[pos : pos + 4], "big")
        kind, body = raw[pos + 4 : pos + 8], raw[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
        elif kind == b"PLTE":
            colours = body
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    indices = np.frombuffer(zlib.decompress(data), np.uint8).reshape(height, width + 1)[:, 1:]
    palette = np.frombuffer(colours, np.uint8).reshape(-1, 3)
    return indices, palette[indices]


def test_one_scale_is_shared_value_one_differs_between_the_two_ranges():
    small = np.array([[0.0, 1.0], [0.5, 0.25]], np.float32)
    large = np.array([[0.0, 1.0], [5.0, 10.0]], np.float32)
    scale = shared_scale([small, large])
    assert (scale.vmin, scale.vmax, scale.cmap) == (0.0, 10.0, "viridis")
    shared = [_png(p.png)[1] for p in row_pictures([small, large], scale)]
    assert (shared[0][0, 1] == shared[1][0, 1]).all(), "value 1 has one colour on one scale"
    assert (shared[0][0, 0] == shared[1][0, 0]).all()
    own = _png(row_pictures([small], shared_scale([small]))[0].png)[1]
    assert not (own[0, 1] == shared[0][0, 1]).all(), "on its own scale 1 is the top colour"
    assert (own[0, 1] == shared[1][1, 1]).all(), "which the shared scale gives 10"


def test_both_signs_give_a_diverging_scale_centred_at_zero_and_bool_gray():
    scale = shared_scale([np.array([-1.0, 0.5]), np.array([2.0, 0.0])])
    assert (scale.vmin, scale.vmax, scale.diverging) == (-2.0, 2.0, True)
    masks = [np.array([True, False]), np.array([False, False])]
    assert shared_scale(masks).cmap == "gray"
    assert shared_scale([masks[0], np.array([0.0, 3.0])]).cmap == "viridis"


def test_the_scale_covers_the_whole_arrays_and_ignores_nan_which_keeps_its_colour():
    cube = np.zeros((3, 2, 2))
    cube[2, 0, 0] = 8.0  # outside the first slice, still on the scale
    flat = np.array([[np.nan, 4.0], [0.0, 2.0]])
    scale = shared_scale([cube, flat])
    assert (scale.vmin, scale.vmax) == (0.0, 8.0)
    pictures = row_pictures([cube, flat], scale)
    assert _png(pictures[0].png)[0].shape == (2, 2), "rank 3: the first 2-D slice"
    indices, pixels = _png(pictures[1].png)
    assert indices[0, 0] == ROW_LEVELS, "NaN after the map's steps"
    assert "#{:02x}{:02x}{:02x}".format(*pixels[0, 0]) == special_colors(scale.cmap)[0]
    assert pictures[1].label == "float64[2, 2], min 0, max 4"
    assert pictures[0].label == "float64[3, 2, 2], min 0, max 8"


def test_large_arrays_are_reduced_to_about_a_thumbnail_and_vectors_stay_strips():
    big, vector = np.arange(512 * 512.0).reshape(512, 512), np.arange(10_000.0)
    scale = shared_scale([big])
    square = _png(row_pictures([big], scale)[0].png)[0]
    assert square.size <= ROW_CELLS * 1.2 and max(square.shape) <= ROW_SIDE
    strip = _png(row_pictures([vector], shared_scale([vector]))[0].png)[0]
    assert strip.shape[0] == 1 and strip.shape[1] <= ROW_SIDE


def test_a_row_picture_uses_at_most_row_levels_steps_from_one_end_of_the_map_to_the_other():
    ramp = np.linspace(0.0, 1.0, 256).reshape(16, 16)
    indices, pixels = _png(row_pictures([ramp], shared_scale([ramp]))[0].png)
    assert set(np.unique(indices)) == set(range(ROW_LEVELS))
    assert len({tuple(p) for p in pixels.reshape(-1, 3)}) == ROW_LEVELS


def test_the_same_arrays_give_the_same_bytes_and_bad_input_says_why():
    arrays = [np.eye(3), np.ones((3, 3))]
    scale = shared_scale(arrays)
    assert row_pictures(arrays, scale) == row_pictures(arrays, scale)
    assert all(p.png.startswith("data:image/png;base64,") for p in row_pictures(arrays, scale))
    with pytest.raises(ValueError, match="at least one array"):
        shared_scale([])
    with pytest.raises(ValueError, match="rank 1 or more"):
        row_pictures([np.float32(1.0)], scale)
    with pytest.raises(TypeError):
        row_pictures([np.array(["a", "b"])], scale)


def test_a_scale_over_extents_is_the_scale_over_the_arrays_themselves():
    arrays = [np.array([-1.0, 0.5]), np.array([[2.0, np.nan]]), np.array([np.inf])]
    assert scale_over([extent(a) for a in arrays]) == shared_scale(arrays)
    masks = [np.array([True, False])] * 2
    assert scale_over([extent(m) for m in masks]) == shared_scale(masks)
    assert extent(np.array([np.nan])) == Extent(None, None, False)

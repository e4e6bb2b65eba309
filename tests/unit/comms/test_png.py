"""The PNG writer of the static heatmap: a decoder reads back the same pixels."""

import io

import numpy as np
import pytest
from PIL import Image

from jaxdbg_widgets.comms.png import hex_rgba, png_bytes, png_data_url


def test_pixels_round_trip_through_a_png_decoder():
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, size=(5, 7, 4), dtype=np.uint8)
    image = Image.open(io.BytesIO(png_bytes(pixels)))
    assert image.mode == "RGBA" and image.size == (7, 5)
    np.testing.assert_array_equal(np.asarray(image), pixels)


def test_same_pixels_same_bytes_and_a_data_url():
    pixels = np.full((2, 3, 4), 200, dtype=np.uint8)
    assert png_bytes(pixels) == png_bytes(pixels.copy())
    assert png_data_url(pixels).startswith("data:image/png;base64,iVBORw0KGgo")


def test_bad_input_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="rows x cols x 4 uint8"):
        png_bytes(np.zeros((2, 3, 3), dtype=np.uint8))
    with pytest.raises(ValueError, match="#RRGGBB"):
        hex_rgba("red")
    assert hex_rgba("#800026") == (128, 0, 38, 255)

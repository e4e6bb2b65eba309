import itertools

import matplotlib as mpl
import pytest
from jax._src.debugging import make_color_iter

from jaxdbg_widgets.sharding.colors import cell_colors, relative_luminance, text_color


@pytest.mark.parametrize("count", [1, 2, 3, 6, 10, 20, 21, 64, 256, 4096])
@pytest.mark.parametrize("color_map", [None, "tab20b", "tab10", "viridis", "Greys"])
def test_every_cell_gets_its_own_colour(count, color_map):
    colors = cell_colors(count, color_map)
    assert len(colors) == count
    assert len(set(colors)) == count
    assert all(c.startswith("#") and len(c) == 7 for c in colors)


def test_jax_repeats_colours_where_we_do_not():
    tab20b = mpl.colormaps["tab20b"]
    for count in (2, 6, 10):
        jax_colors = list(itertools.islice(make_color_iter(tab20b, 1, count), count))
        assert len(set(cell_colors(count))) == count
        if len({tuple(c) for c in jax_colors}) == count:
            pytest.skip("this JAX's sharding colours no longer repeat")


def test_callable_and_string_returning_maps():
    assert cell_colors(3, lambda x: (x, 0.0, 1 - x)) == ["#0000FF", "#FF0000", "#800080"]
    assert len(set(cell_colors(5, lambda x: "red"))) == 5


@pytest.mark.parametrize(
    ("color_map", "error"),
    [
        ("no-such-map", ValueError),
        (42, TypeError),
        (lambda x: "not a colour", ValueError),
        (lambda x: None, TypeError),
    ],
)
def test_bad_colour_maps(color_map, error):
    with pytest.raises(error):
        cell_colors(4, color_map)


def test_text_colour_has_the_better_contrast():
    assert text_color("#FFFF00") == "#000000"
    assert text_color("#393B79") == "#ffffff"
    assert relative_luminance("#FFFFFF") == pytest.approx(1.0)
    for color in cell_colors(64):
        lum = relative_luminance(color)
        chosen = text_color(color)
        on_black, on_white = (lum + 0.05) / 0.05, 1.05 / (lum + 0.05)
        assert (on_black if chosen == "#000000" else on_white) == max(on_black, on_white)

"""The default colour maps' tables equal matplotlib's maps, and a thumbnail, a debugger picture
and a default ``show`` are coloured without importing matplotlib."""

from __future__ import annotations

import subprocess
import sys

import matplotlib
import numpy as np
import pytest

from jaxdbg_widgets.pictures.colors import gradient_stops, lut, special_colors
from jaxdbg_widgets.pictures.maps import TABLES
from jaxdbg_widgets.pictures.scale import LEVELS


def _matplotlib_rgb(name: str, points: np.ndarray) -> list[tuple[int, int, int]]:
    rgba = matplotlib.colormaps[name](points)
    return [tuple(round(float(c) * 255) for c in row[:3]) for row in rgba]


def test_the_tables_are_the_default_maps():
    assert set(TABLES) == {"viridis", "RdBu_r", "gray"}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_level_of_a_table_is_matplotlibs_colour(name):
    assert list(lut(name)) == _matplotlib_rgb(name, np.linspace(0.0, 1.0, LEVELS))


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("level", [0, 1, 63, 126, 200, LEVELS - 1])
def test_a_level_has_the_colour_matplotlib_gives_at_its_point(name, level):
    assert lut(name)[level] == _matplotlib_rgb(name, np.array([level / (LEVELS - 1)]))[0]


def test_known_colours_of_the_defaults():
    assert lut("viridis")[0] == (68, 1, 84) and lut("viridis")[-1] == (253, 231, 37)
    assert lut("gray")[0] == (0, 0, 0) and lut("gray")[-1] == (255, 255, 255)
    assert lut("RdBu_r")[0] == (5, 48, 97) and lut("RdBu_r")[-1] == (103, 0, 31)
    assert gradient_stops("viridis")[0] == "#440154"


def test_a_map_without_a_table_still_comes_from_matplotlib():
    assert list(lut("magma")) == _matplotlib_rgb("magma", np.linspace(0.0, 1.0, LEVELS))
    assert len(set(special_colors("magma"))) == 3


def test_thumbnails_and_default_pictures_do_not_import_matplotlib():
    script = """
import sys
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
import jaxdbg_widgets as jdw
from jaxdbg_widgets.pictures.thumbnail import small_picture, thumbnail

mesh = jax.make_mesh((len(jax.devices()),), ("x",))
signed = jax.device_put(np.linspace(-1, 1, 64 * 64).reshape(64, 64), NamedSharding(mesh, P("x")))
assert thumbnail(signed).startswith("data:image/png;base64,")
assert thumbnail(np.arange(10) > 4) is not None
assert small_picture(np.arange(12.0).reshape(3, 4), "x")["scale"]["cmap"] == "viridis"
jdw.show({"a": np.eye(3), "b": np.float32(2)}).to_html()
print("matplotlib" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "False"

"""The picture model: every dtype drawn, layouts by rank, scales, special colours and shards."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.pictures import show
from jaxdbg_widgets.pictures.colors import lut, palette, special_colors
from jaxdbg_widgets.pictures.model import PictureOptions, build_picture, build_pictures
from jaxdbg_widgets.pictures.scale import LEVELS, NAN, NEGINF, POSINF, choose_scale

FLOAT8 = [name for name in dir(ml_dtypes) if name.startswith("float8_")]


def _rgb(color):
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", *FLOAT8])
def test_narrow_floats_are_drawn_with_their_exact_values(dtype):
    wanted = np.array([[-2.0, -0.5], [0.25, 1.5]], dtype=np.float32)
    values = wanted.astype(getattr(ml_dtypes, dtype, None) or np.dtype(dtype))
    if "fnu" in dtype:  # unsigned float8 variants: no negative values
        values = np.abs(wanted).astype(getattr(ml_dtypes, dtype))
    picture = build_picture(values)
    widened = values.astype(np.float32)
    assert picture.dtype == dtype and picture.kind == "float"
    assert picture.stats.min == widened.min() and picture.stats.max == widened.max()
    np.testing.assert_array_equal(picture.panels[0].cells, widened.astype(np.float64))
    assert picture.value_text((1, 1)) == str(values[1, 1])


@pytest.mark.parametrize("dtype", ["int4", "uint4", "uint2", "int8", "uint16", "int64"])
def test_integers_are_drawn_exactly(dtype):
    values = np.array([[1, 2], [3, 0]]).astype(getattr(ml_dtypes, dtype, None) or np.dtype(dtype))
    picture = build_picture(values)
    assert picture.kind == "int" and (picture.stats.min, picture.stats.max) == (0, 3)
    assert picture.histogram.counts == (1, 1, 1, 1)  # one bin per value


def test_a_jax_int4_array_draws():
    picture = build_picture(jnp.array([[-8, 7], [0, 1]], dtype=jnp.int4))
    assert (picture.stats.min, picture.stats.max) == (-8, 7)
    assert picture.dtype == "int4"


def test_bool_is_drawn_black_and_white():
    picture = build_picture(np.eye(3, dtype=bool))
    assert picture.kind == "bool" and picture.scale.cmap == "gray"
    assert (picture.scale.vmin, picture.scale.vmax) == (0.0, 1.0)
    assert picture.scale.levels(picture.panels[0].cells)[0].tolist() == [LEVELS - 1, 0, 0]


def test_complex_is_magnitude_by_default_and_phase_on_request():
    values = np.array([3 + 4j, -1j, 1 + 0j])
    assert build_picture(values).panels[0].cells.tolist() == [[5.0, 1.0, 1.0]]
    phase = build_picture(values, options=PictureOptions(complex_part="phase"))
    np.testing.assert_allclose(phase.panels[0].cells[0], np.angle(values))
    assert phase.part == "phase" and phase.value_text((0,)) == str(values[0])
    with pytest.raises(ValueError, match="complex_part"):
        build_picture(values, options=PictureOptions(complex_part="real"))


def test_signed_data_gets_a_diverging_map_centred_at_zero():
    scale = build_picture(np.array([[-1.0, 3.0]])).scale
    assert scale.diverging and scale.cmap == "RdBu_r" and (scale.vmin, scale.vmax) == (-3.0, 3.0)
    unsigned = build_picture(np.array([[1.0, 3.0]])).scale
    assert not unsigned.diverging and unsigned.cmap == "viridis"
    assert (unsigned.vmin, unsigned.vmax) == (1.0, 3.0)


def test_options_override_the_scale_and_an_unknown_map_is_refused():
    scale = choose_scale(-1.0, 3.0, kind="float", cmap="magma", vmin=0.0, vmax=10.0)
    assert (scale.cmap, scale.vmin, scale.vmax) == ("magma", 0.0, 10.0)
    with pytest.raises(ValueError, match="unknown colour map"):
        show(np.ones(3), cmap="no-such-map")


@pytest.mark.parametrize(
    "cmap", ["viridis", "RdBu_r", "gray", "magma", "hsv", "jet", "coolwarm", "tab20", "turbo"]
)
def test_special_colours_are_far_from_the_map_and_from_each_other(cmap):
    colors = special_colors(cmap)
    assert len(set(colors)) == 3
    used = np.array(lut(cmap), dtype=float)
    for color in colors:
        assert np.min(np.linalg.norm(used - _rgb(color), axis=1)) >= 60, (cmap, color)
    for a in colors:
        for b in colors:
            assert a == b or np.linalg.norm(_rgb(a) - _rgb(b)) >= 90
    entries = palette(cmap)
    assert len(entries) == 3 * (LEVELS + 3)
    for entry, color in zip((NAN, POSINF, NEGINF), colors, strict=True):
        assert tuple(entries[3 * entry : 3 * entry + 3]) == tuple(_rgb(color).astype(int))


def test_special_values_take_their_own_palette_entries():
    scale = choose_scale(0.0, 1.0, kind="float")
    levels = scale.levels(np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, 7.0]))
    assert levels.tolist() == [NAN, POSINF, NEGINF, 0, LEVELS - 1, LEVELS - 1]


def test_layouts_by_rank():
    assert build_picture(np.float32(2.5)).layout == "scalar"
    strip = build_picture(np.arange(10.0))
    assert strip.layout == "strip" and strip.grid == (1, 10)
    assert strip.full_index(0, 0, 4) == (4,)
    grid = build_picture(np.zeros((3, 5, 7)))
    assert grid.layout == "grid" and grid.grid == (5, 7) and len(grid.panels) == 3
    assert [p.index for p in grid.panels] == [(0,), (1,), (2,)]
    assert grid.panels[1].title == "[1, :, :]"
    assert grid.full_index(2, 4, 6) == (2, 4, 6)


def test_facets_stop_at_max_facets_and_sliders_show_one_slice():
    values = np.arange(5 * 6 * 2 * 2, dtype=np.float32).reshape(5, 6, 2, 2)
    facets = build_picture(values, options=PictureOptions(max_facets=4))
    assert len(facets.panels) == 4 and facets.panel_count == 30
    sliders = build_picture(values, options=PictureOptions(leading="sliders"), position=(3, 4))
    assert [p.index for p in sliders.panels] == [(3, 4)]
    np.testing.assert_array_equal(sliders.panels[0].cells, values[3, 4])
    with pytest.raises(IndexError):
        build_picture(values, options=PictureOptions(leading="sliders"), position=(5, 0))


def test_a_nan_in_a_large_array_survives_into_the_picture():
    values = np.zeros((3000, 2000), dtype=np.float32)
    values[2999, 1] = np.nan
    picture = build_picture(values)
    assert picture.reduced
    cells = picture.panels[0].cells
    down, across = picture.factor
    assert np.isnan(cells[2999 // down, 1 // across]) and np.isnan(cells).sum() == 1
    assert picture.stats.nan == 1


def test_exact_values_are_read_at_full_resolution_from_the_host_array():
    values = np.arange(2000 * 2000, dtype=np.float32).reshape(2000, 2000) / 7
    picture = build_picture(values)
    assert picture.reduced
    assert picture.value_text((1234, 567)) == str(values[1234, 567])
    with pytest.raises(IndexError):
        picture.value_text((2000, 0))


def test_a_sharded_array_carries_its_shard_boxes_and_devices():
    mesh = jax.make_mesh((4, 2), ("x", "y"))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x", "y"))
    array = jax.device_put(jnp.arange(32.0 * 16).reshape(32, 16), sharding)
    picture = build_picture(array)
    assert len(picture.shards) == 8 and picture.spec == "P('x', 'y')"
    boxes = {box.bounds: box.devices for box in picture.shards}
    for device, index in sharding.devices_indices_map((32, 16)).items():
        bounds = tuple((s.start or 0, s.stop) for s in index)
        assert boxes[bounds] == (device.id,)
    assert {box.platform for box in picture.shards} == {"CPU"}  # as the labels name devices


def test_the_view_names_each_shards_platform_so_device_chips_match_the_labels():
    from jaxdbg_widgets.pictures.view import picture_view

    mesh = jax.make_mesh((8,), ("x",))
    array = jax.device_put(jnp.arange(16.0), jax.sharding.NamedSharding(mesh, P("x")))
    shards = picture_view(build_picture(array))["shards"]
    assert [(s["label"], s["platform"]) for s in shards[:2]] == [("CPU 0", "CPU"), ("CPU 1", "CPU")]


def test_a_replicated_or_single_device_array_has_no_shards():
    assert build_picture(jnp.ones((4, 4))).shards == ()


def test_a_pytree_gives_one_picture_per_array_leaf_with_its_path():
    pictures = build_pictures({"w": np.ones((2, 2)), "name": "x", "b": [jnp.zeros(3), 1.5]})
    assert [p.path for p in pictures.pictures] == ["['b'][0]", "['b'][1]", "['w']"]
    assert pictures.skipped == ("['name'] (str)",)


def test_a_tracer_is_refused_with_what_to_do():
    def traced(x):
        build_pictures(x)
        return x

    with pytest.raises(TypeError, match="concrete arrays"):
        jax.jit(traced)(jnp.ones(3))

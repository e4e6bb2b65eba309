"""Every sharding view takes an array alone as well as ``(shape, sharding)``, and says clearly
what it expected when given anything else."""

from __future__ import annotations

import contextlib
import io

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxdbg_widgets as jdw


@pytest.fixture
def array():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    return jax.device_put(
        jnp.arange(32.0).reshape(4, 8), NamedSharding(mesh, PartitionSpec("x", "y"))
    )


def _printed(fn, *args, **kwargs) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args, **kwargs)
    return out.getvalue()


VIEWS = {
    "sharding_text": lambda *a, **k: jdw.sharding_text(*a, use_color=False, header=True, **k),
    "sharding_html": jdw.sharding_html,
    "sharding_layout": jdw.sharding_layout,
    "visualize_sharding": lambda *a, **k: _printed(
        jdw.visualize_sharding, *a, use_color=False, **k
    ),
    "ShardingWidget": lambda *a, **k: jdw.ShardingWidget(*a, **k).view,
}


@pytest.mark.parametrize("view", VIEWS)
def test_an_array_alone_draws_as_its_shape_sharding_and_dtype(view, array):
    draw = VIEWS[view]
    alone = draw(array)
    assert alone == draw(array.shape, array.sharding, dtype=array.dtype)


def test_the_dtype_comes_from_the_array_unless_given(array):
    assert jdw.sharding_layout(array).dtype == "float32"
    assert jdw.sharding_layout(array, dtype=np.int8).dtype == "int8"
    assert jdw.sharding_layout(array.shape, array.sharding).dtype is None


@pytest.mark.parametrize("view", VIEWS)
def test_an_abstract_array_with_a_sharding_draws_too(view, array):
    struct = jax.ShapeDtypeStruct(array.shape, array.dtype, sharding=array.sharding)
    assert VIEWS[view](struct) == VIEWS[view](array)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("abc", r"expected an array with a sharding .* got str 'abc' and no sharding"),
        (None, "got NoneType None and no sharding"),
        ((4, 8), r"got tuple \(4, 8\) and no sharding"),
        (np.ones(3), "a ndarray has no sharding"),
        (jax.ShapeDtypeStruct((4,), np.float32), "a ShapeDtypeStruct has no sharding"),
    ],
)
def test_anything_else_is_a_type_error_saying_what_was_expected(view, value, message):
    with pytest.raises(TypeError, match=message):
        VIEWS[view](value)


def test_an_array_of_ints_is_never_read_as_a_shape(array):
    with pytest.raises(ValueError, match=r"names 2 dimensions, but the shape \(8,\) has 1"):
        jdw.sharding_text(jnp.arange(8), array.sharding)


def test_inside_jit_the_error_points_to_the_compile_time_views(array):
    with pytest.raises(TypeError, match=r"inside jit use jaxdbg_widgets\.visualize_array_sharding"):
        jax.jit(lambda a: jdw.sharding_text(a) and a)(array)

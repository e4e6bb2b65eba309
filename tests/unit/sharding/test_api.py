import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxdbg_widgets as jdw


@pytest.fixture
def mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def test_terminal_prints_text_for_any_rank(mesh, capsys):
    jdw.visualize_sharding(
        (4, 8, 8), NamedSharding(mesh, PartitionSpec("x", None, "y")), use_color=False
    )
    out = capsys.readouterr().out
    assert "[0:2, :, :]" in out and "CPU 7" in out


def test_visualize_array_sharding_eager(mesh, capsys):
    x = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x", "y")))
    jdw.visualize_array_sharding(x, use_color=False)
    out = capsys.readouterr().out
    assert all(f"CPU {i}" in out for i in range(8))


def test_inside_jit_fires_at_compile_time_only(mesh):
    seen = []

    @jax.jit
    def f(v):
        jdw.inspect_array_sharding(v, callback=seen.append)
        return v * 2

    x = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x")))
    f(x)
    f(x)
    assert len(seen) == 1
    assert seen[0].spec == PartitionSpec("x")


def test_visualize_inside_jit_shows_the_compiled_sharding(mesh, capsys):
    @jax.jit
    def f(v):
        y = v @ v.T
        jdw.visualize_array_sharding(y, use_color=False)
        return y

    f(jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x"))))
    out = capsys.readouterr().out
    assert "CPU" in out and "┌" in out


def test_options_checked_before_tracing(mesh):
    x = jax.device_put(jnp.ones((8,)), NamedSharding(mesh, PartitionSpec("y")))
    with pytest.raises(ValueError, match="scale"):
        jdw.visualize_array_sharding(x, scale=0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        jdw.visualize_array_sharding(x, colour=True)
    with pytest.raises(TypeError, match="callable"):
        jdw.inspect_array_sharding(x, callback=None)


def test_text_and_html_from_the_public_surface(mesh):
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    assert jdw.sharding_layout((8, 8), sharding).grid == (2, 4)
    assert "CPU 5" in jdw.sharding_text((8, 8), sharding, use_color=False)
    assert "CPU 5" in jdw.sharding_html((8, 8), sharding)

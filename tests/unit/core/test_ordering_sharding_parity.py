"""Ordered effects, pmap, sharded jit and shard_map: same output as ``jax.debug``."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax import numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.core import jax_registry
from tests.unit.core.parity import JAX_DEBUG, JAXDBG, both


@pytest.fixture
def printing_backend():
    """A debugger backend that prints the innermost frame's ``x`` and continues."""

    def backend(frames, thread_id, **kwargs):
        print(f"break x={frames[0].locals['x']}")

    undo = jax_registry.register("parity-printer", backend, -100)
    yield "parity-printer"
    undo()


@pytest.fixture
def mesh():
    return jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))


def test_ordered_keeps_program_order_across_prints_and_breakpoints(capfd, printing_backend):
    def program(dbg):
        def f(x):
            for k in range(4):
                dbg.print("print {}", x[k], ordered=True)
                dbg.breakpoint(backend=printing_backend, ordered=True)
                x = x + 1
            return x

        jax.jit(f)(jnp.arange(8.0))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_ordered_is_shared_with_jax_debug(capfd):
    def f(x):
        for k in range(3):
            JAX_DEBUG.print("jax {}", x + k, ordered=True)
            JAXDBG.print("ours {}", x + k, ordered=True)

    capfd.readouterr()
    jax.jit(f)(0)
    JAXDBG.effects_barrier()
    assert capfd.readouterr().out.split() == [
        word for k in range(3) for word in ("jax", str(k), "ours", str(k))
    ]


def test_ordered_rejected_under_pmap():
    def raised(dbg):
        with pytest.raises(Exception) as info:
            jax.pmap(lambda x: dbg.print("{}", x, ordered=True))(jnp.arange(jax.device_count()))
        return info.value

    expected, ours = raised(JAX_DEBUG), raised(JAXDBG)
    assert type(ours) is type(expected)
    assert str(ours) == str(expected)
    assert "rdered effects" in str(ours)


def test_sharded_jit_prints_the_logical_value_once(capfd, mesh):
    def program(dbg):
        x = jax.device_put(jnp.arange(16.0).reshape(8, 2), NamedSharding(mesh, P("i")))
        jax.jit(lambda v: dbg.print("value {}", v * 2))(x)

    expected, ours = both(capfd, program)
    assert ours == expected
    assert ours.count("value") == 1


def test_partitioned_prints_each_local_shard_once(capfd, mesh):
    def program(dbg):
        x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("i")))
        jax.jit(lambda v: dbg.print("shard {}", v, partitioned=True))(x)

    expected, ours = both(capfd, program)
    assert sorted(ours.splitlines()) == sorted(expected.splitlines())
    assert len(ours.splitlines()) == 8


def test_shard_map_prints_once_per_device(capfd, mesh):
    def program(dbg):
        def per_device(block):
            dbg.print("block {}", block)
            return block

        f = jax.shard_map(per_device, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
        jax.jit(f)(jnp.arange(16.0))

    expected, ours = both(capfd, program)
    assert sorted(ours.splitlines()) == sorted(expected.splitlines())
    assert len(ours.splitlines()) == 8


def test_partially_manual_shard_map_prints_once_per_manual_index(capfd):
    mesh = jax.make_mesh((2, 4), ("a", "b"), axis_types=(AxisType.Auto,) * 2)

    def program(dbg):
        def per_device(block):
            dbg.print("block {}", block)
            return block

        f = jax.shard_map(
            per_device, mesh=mesh, in_specs=P("a"), out_specs=P("a"), axis_names={"a"}
        )
        jax.jit(f)(jnp.arange(8.0))

    expected, ours = both(capfd, program)
    assert sorted(ours.splitlines()) == sorted(expected.splitlines())
    assert len(ours.splitlines()) == 2


def test_printed_values_are_jax_arrays_like_jax_debug(capfd):
    def program(dbg):
        jax.jit(lambda x: dbg.callback(lambda v: print(type(v).__name__, np.asarray(v)), x))(1.0)

    expected, ours = both(capfd, program)
    assert ours == expected

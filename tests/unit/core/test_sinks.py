"""Print sinks receive a ``PrintRecord`` for every printed line; stdout still gets the text."""

from __future__ import annotations

import threading

import jax
import pytest
from jax import numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core.sinks import PrintRecord, add_print_sink


@pytest.fixture
def records():
    received: list[PrintRecord] = []
    remove = add_print_sink(received.append)
    yield received
    remove()


def test_each_print_reaches_stdout_and_the_sinks(capfd, records):
    def f(x):
        jdw.print("x={x} n={}", 3, x=x)
        return x

    jax.jit(f)(jnp.arange(3.0))
    jdw.effects_barrier()
    assert capfd.readouterr().out == "x=[0. 1. 2.] n=3\n"
    (record,) = records
    assert record.text == "x=[0. 1. 2.] n=3"
    assert (record.filename, record.function) == (__file__, "f")
    assert record.lineno == f.__code__.co_firstlineno + 1
    assert record.values == (("0", "i32[] 3"), ("x", "f32[3] min=0 max=2"))
    assert record.thread_id is None
    assert record.timestamp > 0


def test_a_raising_sink_does_not_break_printing(capfd, records, caplog):
    def broken(record):
        raise RuntimeError("sink is broken")

    remove = add_print_sink(broken)
    try:
        jax.jit(lambda x: jdw.print("still {}", x))(1)
        jdw.effects_barrier()
    finally:
        remove()
    assert capfd.readouterr().out == "still 1\n"
    assert [r.text for r in records] == ["still 1"]
    assert "print sink raised" in caplog.text


def test_removed_sinks_get_nothing(records):
    extra: list[PrintRecord] = []
    remove = add_print_sink(extra.append)
    remove()
    remove()
    jdw.print("hello")
    assert extra == []
    assert [r.text for r in records] == ["hello"]


def test_worker_thread_prints_carry_their_thread_id(records):
    mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))
    jax.jit(lambda v: jdw.print("sum {}", v.sum()))(x)
    jdw.effects_barrier()
    (record,) = records
    assert record.thread_id not in (None, threading.main_thread().ident)


def test_expand_dims_print_is_one_record(records):
    jax.vmap(lambda x: jdw.print("b {}", x, vmap_method="expand_dims"))(jnp.arange(4))
    jdw.effects_barrier()
    assert [r.text for r in records] == ["b [0 1 2 3]"]
    assert records[0].values == (("0", "i32[4] min=0 max=3"),)


def test_non_callable_sink_is_rejected():
    with pytest.raises(TypeError, match="callable"):
        add_print_sink("not a sink")


def test_keyword_values_are_paired_with_their_own_names(records):
    x = jnp.arange(3.0)
    jdw.print("x = {x}, mean = {m:.2f}", x=x, m=x.mean())
    jax.jit(lambda v: jdw.print("{} {z} {a}", v, z=v * 2, a=jnp.ones((2, 2))))(x)
    jdw.effects_barrier()
    first, second = records
    assert first.values == (("x", "f32[3] min=0 max=2"), ("m", "f32[] 1.0"))
    assert second.values == (
        ("0", "f32[3] min=0 max=2"),
        ("z", "f32[3] min=0 max=4"),
        ("a", "f32[2,2] min=1 max=1"),
    )


def test_keyword_summaries_of_a_large_print_keep_their_names(records):
    jdw.print("{y} {m}", y=jnp.zeros(100), m=jnp.float32(2))
    jdw.effects_barrier()
    assert records[0].values == (("y", "f32[100] min=0 max=0"), ("m", "f32[] 2.0"))

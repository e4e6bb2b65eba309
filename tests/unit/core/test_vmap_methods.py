"""``vmap_method="expand_dims"``: one host call per batch, told which arguments are batched."""

from __future__ import annotations

import jax
import numpy as np
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import current_batch


def _calls(f, *args):
    calls = []

    def record(*values, **named):
        calls.append((jax.tree_util.tree_map(np.asarray, (values, named)), current_batch()))

    f(record, *args)
    jdw.effects_barrier()
    return calls


def test_print_expand_dims_prints_the_batch_once(capfd):
    jax.vmap(lambda x: jdw.print("x: {}", x, vmap_method="expand_dims"))(jnp.arange(3))
    jdw.effects_barrier()
    assert capfd.readouterr().out == "x: [0 1 2]\n"


def test_print_sequential_is_the_default(capfd):
    jax.vmap(lambda x: jdw.print("x: {}", x))(jnp.arange(3))
    jdw.effects_barrier()
    assert capfd.readouterr().out == "x: 0\nx: 1\nx: 2\n"


def test_callback_expand_dims_gets_the_whole_batch_and_its_batched_arguments():
    def f(record, xs, y):
        def g(x):
            return jdw.callback(record, x, y, "tag", scale=x * 2, vmap_method="expand_dims")

        jax.jit(jax.vmap(g))(xs)

    ((values, batch),) = _calls(f, jnp.arange(4), jnp.float32(5))
    (x, y, tag), named = values
    np.testing.assert_array_equal(x, np.arange(4))
    np.testing.assert_array_equal(named["scale"], np.arange(4) * 2)
    assert y.shape == () and tag == "tag"
    assert batch.shape == (4,)
    assert batch.batched == ((True, False, False), {"scale": True})


def test_callback_expand_dims_with_in_axes_moves_the_batch_axis_first():
    def f(record, xs):
        jax.vmap(lambda x: jdw.callback(record, x, vmap_method="expand_dims"), in_axes=1)(xs)

    ((values, batch),) = _calls(f, jnp.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(values[0][0], np.arange(6).reshape(2, 3).T)
    assert batch.shape == (3,)


def test_nested_expand_dims_broadcasts_to_the_full_batch():
    def f(record, xs, ys):
        inner = jax.vmap(
            lambda x, y: jdw.callback(record, x, y, vmap_method="expand_dims"), in_axes=(0, None)
        )
        jax.vmap(inner, in_axes=(None, 0))(xs, ys)

    ((values, batch),) = _calls(f, jnp.arange(3), jnp.arange(2) * 10)
    (x, y), _ = values
    assert batch.shape == (2, 3)
    np.testing.assert_array_equal(x, np.broadcast_to(np.arange(3), (2, 3)))
    np.testing.assert_array_equal(y, np.broadcast_to((np.arange(2) * 10)[:, None], (2, 3)))


def test_callback_sequential_calls_once_per_element_without_batch_info():
    def f(record, xs):
        jax.vmap(lambda x: jdw.callback(record, x))(xs)

    calls = _calls(f, jnp.arange(3))
    assert [int(values[0][0]) for values, _ in calls] == [0, 1, 2]
    assert all(batch is None for _, batch in calls)


def test_current_batch_is_none_outside_a_callback():
    assert current_batch() is None

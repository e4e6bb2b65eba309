"""``print_grad`` prints what a hand-written ``custom_vjp`` with ``jax.debug.print`` prints."""

from __future__ import annotations

import jax
import pytest
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import sinks


@jax.custom_vjp
def _by_hand(x):
    return x


_by_hand.defvjp(lambda x: (x, None), lambda _, g: (jax.debug.print("grad: {}", g), (g,))[1])


def _outputs(capfd, tap, program):
    capfd.readouterr()
    result = program(tap)
    jdw.effects_barrier()
    return result, capfd.readouterr().out


@pytest.mark.parametrize(
    "program",
    [
        pytest.param(
            lambda tap: jax.grad(lambda x: (tap(x) ** 2).sum())(jnp.arange(3.0)), id="grad"
        ),
        pytest.param(lambda tap: jax.jit(jax.grad(lambda x: jnp.sin(tap(x))))(0.5), id="jit"),
        pytest.param(
            lambda tap: jax.vmap(jax.grad(lambda x: tap(x) ** 3))(jnp.arange(3.0)), id="vmap"
        ),
        pytest.param(
            lambda tap: jax.grad(jax.grad(lambda x: tap(x) ** 3))(2.0), id="higher-order-grad"
        ),
    ],
)
def test_print_grad_matches_a_custom_vjp_by_hand(capfd, program):
    expected_value, expected = _outputs(capfd, _by_hand, program)
    value, ours = _outputs(capfd, jdw.print_grad, program)
    assert expected
    assert ours == expected
    assert jnp.allclose(value, expected_value)


def test_print_grad_is_an_identity_forward(capfd):
    x = {"a": jnp.arange(2.0), "b": 3.0}
    same = jax.tree_util.tree_map(lambda a, b: bool(jnp.all(a == b)), jdw.print_grad(x), x)
    assert jax.tree_util.tree_all(same)
    jdw.effects_barrier()
    assert capfd.readouterr().out == ""


def test_print_grad_custom_format(capfd):
    jax.grad(lambda x: jdw.print_grad(x, "d loss / d x = {:.1f}") * 4.0)(1.0)
    jdw.effects_barrier()
    assert capfd.readouterr().out == "d loss / d x = 4.0\n"


def test_print_grad_rejects_a_non_string_format():
    with pytest.raises(TypeError, match="format string"):
        jdw.print_grad(1.0, fmt=3)


def test_print_grad_is_attributed_to_its_own_call_not_to_grad():
    records = []
    remove = sinks.add_print_sink(records.append)

    def loss(w):
        h = jdw.print_grad(jnp.sin(w), "d loss / d h = {}")
        return (h**2).sum()

    try:
        jax.grad(loss)(jnp.array([0.5]))
        jdw.effects_barrier()
    finally:
        remove()
    (record,) = records
    assert record.function == "loss"
    assert record.lineno == loss.__code__.co_firstlineno + 1

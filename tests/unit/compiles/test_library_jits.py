"""Retraces under the jits of flax nnx and equinox, named in the user's terms: the user's
function and line, and paths into the user's own arguments, never the library's."""

from __future__ import annotations

import sys

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx

from jaxdbg_widgets.compiles import watch_compiles


def _here() -> int:
    return sys._getframe(1).f_lineno


def _programs(report, name):
    return [p for p in report.programs if p.function and p.function.name.endswith(name)]


# Module-level, so they live as long as the session: on JAX 0.7.0, jax.clear_caches() after a
# collected eqx.filter_jit function corrupts the heap, with or without this package.
PREDICT_LINE = sys._getframe().f_lineno + 3  # its decorator line, as Python counts it


@eqx.filter_jit
def predict(model, x):
    return jax.vmap(model)(x)


class Head(nnx.Module):
    def __init__(self, width: int, rngs: nnx.Rngs):
        self.dense = nnx.Linear(3, width, rngs=rngs)

    def __call__(self, x):
        return self.dense(x)


@nnx.jit
def forward(model, x):
    return model(x).sum()


def test_eqx_filter_jit_names_the_users_function_array_paths_and_static_leaves():
    mlp = eqx.nn.MLP(3, 1, 8, 1, key=jax.random.key(0))
    tanh_mlp = eqx.tree_at(lambda m: m.activation, mlp, jax.nn.tanh)
    four, five = jnp.ones((4, 3)), jnp.ones((5, 3))
    with watch_compiles() as report:
        predict(mlp, four)
        called = _here() + 1
        predict(mlp, five)
        predict(tanh_mlp, five)
    first, by_shape, by_activation = _programs(report, "predict")
    assert first.function.defined.lineno == PREDICT_LINE  # the user's def, not equinox's
    assert by_shape.call_site.lineno == called
    assert by_shape.cause_text() == "x: f32[4,3] → f32[5,3]"
    assert by_activation.cause_text().startswith("model.activation: ")


def test_nnx_jit_names_paths_into_the_users_module():
    x = jnp.ones((4, 3))
    narrow, wide = Head(2, nnx.Rngs(0)), Head(5, nnx.Rngs(0))
    with watch_compiles() as report:
        forward(narrow, x)
        forward(wide, x)
    _, again = _programs(report, "forward")
    assert again.cause_text() == (
        "model.dense.bias.value: f32[2] → f32[5]; model.dense.kernel.value: f32[3,2] → f32[3,5]"
    )


@nnx.jit
def nnx_scaled(model, x, lr):
    return model(x).sum() * lr


@eqx.filter_jit
def eqx_scaled(model, x, lr):
    return jax.vmap(model)(x).sum() * lr


def test_a_python_number_is_traced_under_nnx_jit_and_static_under_eqx_filter_jit():
    x = jnp.ones((4, 3))
    head, mlp = Head(2, nnx.Rngs(0)), eqx.nn.MLP(3, 1, 8, 1, key=jax.random.key(0))
    with watch_compiles() as report:
        nnx_scaled(head, x, 0.1)
        nnx_scaled(head, x, 0.2)  # traced: the same weakly typed f32[], no compile
        nnx_scaled(head, x, jnp.float32(0.1))
        eqx_scaled(mlp, x, 0.1)
        eqx_scaled(mlp, x, 0.2)  # static under equinox: compiled again
    _, by_type = _programs(report, "nnx_scaled")
    assert by_type.cause_text().startswith("lr: f32[] (weak: a Python scalar) → f32[]")
    _, by_value = _programs(report, "eqx_scaled")
    assert by_value.cause_text() == "lr: 0.1 → 0.2"

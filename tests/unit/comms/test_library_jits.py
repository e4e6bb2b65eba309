"""communication_map of steps jitted by flax nnx and equinox: modules holding functions as
arguments, state changed in place, and the collectives named at the user's lines."""

from __future__ import annotations

import sys

import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from flax import nnx
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw

# Module-level, so they live as long as the session (see tests/unit/compiles/test_library_jits).
MEAN_LINE = sys._getframe().f_lineno + 5


@eqx.filter_jit
def eqx_loss(model, xs):
    return jnp.mean(jax.vmap(model)(xs))  # the mean over a sharded batch: an all-reduce


@nnx.jit
def nnx_step(model, optimizer, xs):
    grads = nnx.grad(lambda m: jnp.mean(m(xs) ** 2))(model)
    optimizer.update(model, grads)  # the step returns nothing: all it does is written here


def _batch():
    mesh = jax.sharding.Mesh(jax.devices(), ("data",))  # automatic axes, as flax examples use
    return jax.device_put(jnp.ones((16, 3)), NamedSharding(mesh, P("data")))


def test_an_eqx_filter_jit_step_over_a_sharded_batch_names_the_mean_line():
    model = eqx.nn.MLP(3, "scalar", 8, 1, key=jax.random.key(0))
    comms = jdw.communication_map(eqx_loss, model, _batch())
    (reduce,) = comms.collectives
    assert reduce.kind == "all-reduce" and reduce.span.axes == ("data",)
    assert reduce.source.line == MEAN_LINE


def test_an_nnx_step_that_only_updates_its_model_in_place_keeps_its_collectives():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    comms = jdw.communication_map(nnx_step, model, optimizer, _batch())
    assert comms.collectives, comms.to_text()  # the gradient's reduction over the batch
    assert {c.kind for c in comms.collectives} <= {"all-reduce", "reduce-scatter", "all-gather"}

"""Training programs written the way users write them, each seeded with a NaN cause.

Every program is plain JAX (no flax, optax or equinox), and the line its NaN comes from
carries a ``# NaN:`` comment; :data:`CASES` says, next to each program, what the search must
name there (iteration, shards, batch elements, pass). Tests read the line number from the
comment, so the expectation moves with the code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

# --- an MLP trained in bfloat16 with dropout and a hand-written Adam (eps = 0) -------------

EPS = 0.0  # the bug: Adam's epsilon set to zero


def mlp_loss(params, x, y, key):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    keep = jax.random.bernoulli(key, 0.9, h.shape)
    h = jnp.where(keep, h / 0.9, 0.0).astype(h.dtype)
    out = h @ params["w2"]
    return jnp.mean((out - y) ** 2)


def adam_step(state, batch):
    params, m, v, key = state
    x, y = batch
    key, dropout = jax.random.split(key)
    loss, grads = jax.value_and_grad(mlp_loss)(params, x, y, dropout)
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, grads)
    updates = jax.tree.map(lambda m, v: m / (jnp.sqrt(v) + EPS), m, v)  # NaN: 0 / 0 for a dead unit
    params = jax.tree.map(lambda p, u: p - 1e-3 * u, params, updates)
    return (params, m, v, key), loss


@jax.jit
def train_mlp(params, key, xs, ys):
    zeros = jax.tree.map(jnp.zeros_like, params)
    (params, _, _, _), losses = lax.scan(adam_step, (params, zeros, zeros, key), (xs, ys))
    return params, losses


def mlp_arguments() -> tuple[Any, ...]:
    dtype = jnp.bfloat16
    w1 = jnp.full((4, 3), 0.5, dtype).at[:, 0].set(-1.0)  # unit 0 never fires: its gradient is 0
    params = {"w1": w1, "b1": jnp.zeros((3,), dtype), "w2": jnp.full((3, 1), 0.5, dtype)}
    xs = jnp.ones((5, 8, 4), dtype)
    ys = jnp.zeros((5, 8, 1), dtype)
    return params, jax.random.key(0), xs, ys


# --- a transformer's attention, masked, in a scan over its layers ---------------------------


def attention_layer(h, layer):
    wq, wk, mask = layer
    q, k = h @ wq, h @ wk
    scores = jnp.where(mask, q @ k.T, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)  # NaN: row 2 is all padding
    return weights @ h, None


def encoder(h, wqs, wks, masks):
    return lax.scan(attention_layer, h, (wqs, wks, masks))[0]


def encoder_arguments() -> tuple[Any, ...]:
    layers = 3
    h = jnp.ones((4, 8)) * 0.1
    eye = jnp.broadcast_to(jnp.eye(8), (layers, 8, 8))
    masks = jnp.ones((layers, 4, 4), bool).at[:, 2, :].set(False)  # sequence 2: padding only
    return h, eye, eye, masks


# --- a data-parallel step: shard_map over 8 devices, gradients averaged with pmean ----------


def shard_loss(w, x):
    return jnp.mean(jnp.log(x @ w))  # NaN: log of a negative prediction on shards 0-2


def data_parallel_step(w, x):
    loss, grads = jax.value_and_grad(shard_loss)(w, x)
    return w - 0.1 * lax.pmean(grads, "data"), lax.pmean(loss, "data")


def data_parallel_arguments() -> tuple[Any, ...]:
    mesh = jax.make_mesh((8,), ("data",))
    rows = jnp.arange(16.0).reshape(16, 1) - 5.5  # rows 0-5 (devices 0-2) are negative
    x = jax.device_put(rows, NamedSharding(mesh, P("data")))
    return jnp.ones((1,)), x


def data_parallel_program() -> Callable[..., Any]:
    mesh = jax.make_mesh((8,), ("data",))
    return jax.jit(
        jax.shard_map(
            data_parallel_step, mesh=mesh, in_specs=(P(), P("data")), out_specs=(P(), P())
        )
    )


# --- power iteration with a traced trip count -----------------------------------------------


def power_iteration(a, v, steps):
    def body(i, v):
        w = a @ v
        return w / jnp.linalg.norm(w)  # NaN: 0 / 0 once a nilpotent a has sent v to 0

    return lax.fori_loop(0, steps, body, v)


def power_arguments() -> tuple[Any, ...]:
    nilpotent = jnp.diag(jnp.ones(2), k=1)  # a @ a @ a == 0 for this 3 x 3 matrix
    return nilpotent, jnp.ones(3), 10


# --- per-example gradients with vmap, the batch last in the product -----------------------


def example_loss(w, x):
    return jnp.sum(jnp.sqrt(w @ x))  # NaN: d sqrt at 0 for example 3


per_example_grads = jax.jit(jax.vmap(jax.grad(example_loss), in_axes=(None, 0)))


def per_example_arguments() -> tuple[Any, ...]:
    xs = jnp.ones((6, 3)).at[3].set(0.0)
    return jnp.eye(3), xs


@dataclass(frozen=True)
class Case:
    """A corpus program, its arguments, and what the search must name at its ``# NaN:`` line."""

    name: str
    program: Callable[[], Callable[..., Any]]
    arguments: Callable[[], tuple[Any, ...]]
    marker: str
    path: tuple[str, ...] = ()
    shards: tuple[int, ...] = ()
    batch: tuple[int, ...] | None = None
    direction: str = "forward"
    lead: str = "nonfinite"
    jitted: bool = False
    """The program is compiled by its library's own jit (``nnx.jit``, ``eqx.filter_jit``),
    which takes arguments ``jax.jit`` cannot: the ``nans on`` tests call it as it is."""


CASES = (
    Case(
        "bf16 MLP, dropout, Adam with eps=0",
        lambda: train_mlp,
        mlp_arguments,
        "# NaN: 0 / 0 for a dead unit",
        path=("scan iteration 0",),
    ),
    Case(
        "masked attention over layers",
        lambda: encoder,
        encoder_arguments,
        "# NaN: row 2 is all padding",
        path=("scan iteration 0",),
        lead="nan",
    ),
    Case(
        "data-parallel step with pmean",
        data_parallel_program,
        data_parallel_arguments,
        "# NaN: log of a negative prediction",
        shards=(0, 1, 2),
    ),
    Case(
        "power iteration, traced trip count",
        lambda: jax.jit(power_iteration),
        power_arguments,
        "# NaN: 0 / 0 once a nilpotent",
        path=("while iteration 2",),
    ),
    Case(
        "per-example gradients",
        lambda: per_example_grads,
        per_example_arguments,
        "# NaN: d sqrt at 0 for example 3",
        batch=(3,),
    ),
)

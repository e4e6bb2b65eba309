"""Training programs written with flax (linen and nnx), optax and equinox, each seeded with a
NaN cause.

As in :mod:`tests.corpus.programs`, the line a NaN comes from carries a ``# NaN:`` comment and
:data:`CASES` says what the search must name there. Where the NaN is made inside a library
(optax's Adam, flax's ``LayerNorm``), the line is the user's call into it.
"""

from __future__ import annotations

from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax import nnx
from jax import lax

from tests.corpus.programs import Case

# --- flax linen and optax: a classifier with a hand-written cross-entropy -------------------


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(16)(x))
        return nn.Dense(4)(x)


classifier = Classifier()
adam = optax.adam(1e-3)


def cross_entropy(params, x, labels):
    probs = jax.nn.softmax(classifier.apply(params, x))
    return -jnp.mean(jnp.sum(labels * jnp.log(probs), axis=-1))  # NaN: log(0), saturated softmax


@jax.jit
def linen_train_step(params, opt_state, x, labels):
    loss, grads = jax.value_and_grad(cross_entropy)(params, x, labels)
    updates, opt_state = adam.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def linen_arguments() -> tuple[Any, ...]:
    x = jnp.full((8, 3), 1e4)  # unnormalized inputs: the logits are far apart
    params = classifier.init(jax.random.key(0), x)
    labels = jax.nn.one_hot(jnp.arange(8) % 4, 4)
    return params, adam.init(params), x, labels


# --- flax linen in bfloat16: LayerNorm with epsilon=0 ----------------------------------------


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(8, dtype=jnp.bfloat16)(x)
        return nn.LayerNorm(epsilon=0.0, dtype=jnp.bfloat16)(h)  # NaN: a zero row's variance


block = Block()


@jax.jit
def block_loss(params, x):
    return jnp.mean(block.apply(params, x) ** 2)


def block_arguments() -> tuple[Any, ...]:
    x = jnp.ones((4, 6), jnp.bfloat16)
    params = block.init(jax.random.key(1), x)  # biases start at zero
    return params, x.at[2].set(0.0)  # row 2 is padding: all zeros


# --- flax nnx and optax: Adam with eps=0 on a unit that never fires, state updated in place --


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(2, 3, rngs=rngs)
        self.out = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def mse(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def nnx_train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(mse)(model, x, y)
    optimizer.update(model, grads)  # NaN: Adam's 0 / (sqrt(0) + eps) for the dead unit
    return loss


def nnx_arguments() -> tuple[Any, ...]:
    model = MLP(nnx.Rngs(0))
    model.hidden.kernel[...] = model.hidden.kernel[...].at[:, 0].set(-1.0)  # unit 0 is dead
    model.hidden.bias[...] = jnp.zeros(3)
    optimizer = nnx.Optimizer(model, optax.adam(1e-3, eps=0.0), wrt=nnx.Param)
    return model, optimizer, jnp.ones((4, 2)), jnp.zeros((4, 1))


# --- equinox: an MLP under filter_jit, per-example outputs through vmap ----------------------


@eqx.filter_jit
def eqx_log_likelihood(model, xs):
    def loss(model):
        rates = jax.vmap(model)(xs)
        return -jnp.mean(jnp.log(rates))  # NaN: log of a negative rate, no softplus

    return eqx.filter_value_and_grad(loss)(model)


def eqx_arguments() -> tuple[Any, ...]:
    model = eqx.nn.MLP(3, "scalar", 8, 2, key=jax.random.key(2))
    return model, jax.random.normal(jax.random.key(3), (16, 3))


# --- equinox and optax in bfloat16: a learning rate that makes the steps diverge -------------


def quadratic(model, x):
    return jnp.mean(model(x) ** 2)  # NaN: the square overflows bfloat16 once training diverges


def eqx_fit(model, x, steps: int = 12):
    optimizer = optax.sgd(1e3)  # far too large: each step multiplies the weights
    params, static = eqx.partition(model, eqx.is_array)

    def step(carry, _):
        params, state = carry
        loss, grads = jax.value_and_grad(lambda p: quadratic(eqx.combine(p, static), x))(params)
        updates, state = optimizer.update(grads, state)
        return (optax.apply_updates(params, updates), state), loss

    (params, _), losses = lax.scan(step, (params, optimizer.init(params)), length=steps)
    return eqx.combine(params, static), losses


def eqx_fit_arguments() -> tuple[Any, ...]:
    model = eqx.nn.Linear(4, 1, use_bias=False, key=jax.random.key(4))
    model = jax.tree.map(lambda a: a.astype(jnp.bfloat16) if eqx.is_array(a) else a, model)
    return model, jnp.ones((4,), jnp.bfloat16)


# --- flax linen: a transformer step, blocks under nn.scan, a padding mask, optax adam --------

WIDTH, HEADS, LAYERS, LENGTH, BATCH, VOCAB = 64, 4, 4, 32, 8, 256


class Block(nn.Module):
    @nn.compact
    def __call__(self, h, mask):
        x = nn.LayerNorm()(h)
        q, k, v = (
            nn.DenseGeneral((HEADS, WIDTH // HEADS), name=n)(x) for n in ("query", "key", "value")
        )
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(WIDTH // HEADS)
        scores = jnp.where(mask, scores, -jnp.inf)
        weights = jax.nn.softmax(scores, axis=-1)  # NaN: a row with every key masked
        attended = jnp.einsum("bhqk,bkhd->bqhd", weights, v)
        h = h + nn.DenseGeneral(WIDTH, axis=(-2, -1), name="out")(attended)
        x = nn.LayerNorm()(h)
        return h + nn.Dense(WIDTH)(nn.gelu(nn.Dense(4 * WIDTH)(x))), None


class Transformer(nn.Module):
    @nn.compact
    def __call__(self, tokens, padding):
        h = nn.Embed(VOCAB, WIDTH)(tokens)
        causal = jnp.tril(jnp.ones((LENGTH, LENGTH), bool))
        mask = causal[None, None] & padding[:, None, None, :]
        blocks = nn.scan(
            Block,
            variable_axes={"params": 0},
            split_rngs={"params": True},
            in_axes=nn.broadcast,
            length=LAYERS,
        )
        h, _ = blocks(name="blocks")(h, mask)
        return nn.Dense(VOCAB)(nn.LayerNorm()(h))


transformer = Transformer()


def transformer_loss(params, tokens, padding):
    logits = transformer.apply(params, tokens, padding)
    labels = jnp.roll(tokens, -1, axis=1)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@jax.jit
def transformer_step(params, opt_state, tokens, padding):
    loss, grads = jax.value_and_grad(transformer_loss)(params, tokens, padding)
    updates, opt_state = adam.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def transformer_arguments() -> tuple[Any, ...]:
    """Parameters, Adam state, tokens and a padding mask whose sequence 5 is all padding."""
    tokens = jax.random.randint(jax.random.key(1), (BATCH, LENGTH), 0, VOCAB)
    padding = jnp.ones((BATCH, LENGTH), bool).at[5].set(False)
    params = transformer.init(jax.random.key(0), tokens, jnp.ones((BATCH, LENGTH), bool))
    return params, adam.init(params), tokens, padding


CASES = (
    Case(
        "flax linen classifier, optax adam, hand-written cross-entropy",
        lambda: linen_train_step,
        linen_arguments,
        "# NaN: log(0), saturated softmax",
    ),
    Case(
        "flax linen bf16 LayerNorm with epsilon=0",
        lambda: block_loss,
        block_arguments,
        "# NaN: a zero row's variance",
    ),
    Case(
        "flax nnx MLP, optax adam with eps=0, state updated in place",
        lambda: nnx_train_step,
        nnx_arguments,
        "# NaN: Adam's 0 / (sqrt(0) + eps)",
        jitted=True,
    ),
    Case(
        "equinox MLP under filter_jit, vmap over examples",
        lambda: eqx_log_likelihood,
        eqx_arguments,
        "# NaN: log of a negative rate",
        jitted=True,
    ),
    Case(
        "equinox bf16 fit diverging under optax sgd",
        lambda: jax.jit(eqx_fit, static_argnums=2),
        eqx_fit_arguments,
        "# NaN: the square overflows bfloat16",
        path=("scan iteration 5",),
    ),
    Case(
        "flax linen transformer step, blocks under nn.scan, padding mask, optax adam",
        lambda: transformer_step,
        transformer_arguments,
        "# NaN: a row with every key masked",
        path=("scan iteration 0",),
        lead="nan",
    ),
)

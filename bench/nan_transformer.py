"""A flax linen transformer training step with a NaN, for the search's speed row.

Four pre-norm blocks under ``nn.scan``, causal self-attention with a padding mask, optax Adam;
one sequence of the batch is all padding, so its attention rows are all ``-inf`` and the
softmax gives NaN, in the forward pass and then in the gradients.
"""

from __future__ import annotations

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

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


model = Transformer()
optimizer = optax.adam(1e-3)


def loss_fn(params, tokens, padding):
    logits = model.apply(params, tokens, padding)
    labels = jnp.roll(tokens, -1, axis=1)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


@jax.jit
def train_step(params, opt_state, tokens, padding):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens, padding)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def arguments() -> tuple[Any, ...]:
    """Parameters, Adam state, tokens and a padding mask whose sequence 5 is all padding."""
    tokens = jax.random.randint(jax.random.key(1), (BATCH, LENGTH), 0, VOCAB)
    padding = jnp.ones((BATCH, LENGTH), bool).at[5].set(False)
    params = model.init(jax.random.key(0), tokens, jnp.ones((BATCH, LENGTH), bool))
    return params, optimizer.init(params), tokens, padding

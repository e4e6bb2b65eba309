"""The programs the NaN-origin tests search, each with the line its NaN or Inf comes from."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax


def scan_body(carry, x):
    y = jnp.log(carry - x)  # -inf at iteration 3
    return carry, y


def scan_program(xs):
    return lax.scan(scan_body, 3.0, xs)[1]


def sqrt_loss(w):
    return jnp.sum(jnp.sqrt(w) * 0.0)  # d/dw sqrt(0) is +inf, times 0 gives the NaN gradient


def sharded_sqrt(x):
    return jnp.sqrt(x * 2.0)  # negative on the first five shards


def cond_program(x):
    return lax.cond(x > 0, lambda v: jnp.log(-v), lambda v: v, x)  # true branch: log(-1)


@jax.custom_vjp
def clipped(x):
    return jnp.sin(x)


def clipped_fwd(x):
    return jnp.sin(x), x


def clipped_bwd(residual, cotangent):
    return (cotangent * jnp.log(residual),)  # log(-1) in the backward rule


clipped.defvjp(clipped_fwd, clipped_bwd)


def custom_vjp_loss(x):
    return clipped(x)


def while_program(x):
    def body(state):
        i, value = state
        return i + 1, value + jnp.log(3.0 - i.astype(jnp.float32))  # log(0) at iteration 3

    return lax.while_loop(lambda state: state[0] < 6, body, (0, x))[1]


def overflow_body(w, x):
    w = w * x  # in bfloat16, 1e4 ** 10 overflows to +inf at iteration 9
    return w, w - w  # inf - inf: the NaN, at the same iteration


def bf16_training_loop(xs):
    return lax.scan(overflow_body, jnp.ones((2,), jnp.bfloat16), xs)[1]


def noisy_log(key, x):
    noise = jax.random.normal(key, x.shape) * 0.0
    return jnp.log(x + noise)  # NaN where x < 0


def keyed_steps(key, xs):
    def step(carry, x):
        key, total = carry
        key, sub = jax.random.split(key)
        total = total + jax.random.uniform(sub) * 0.0 + jnp.log(3.0 - x)  # -inf at step 3, NaN at 4
        return (key, total), total

    return lax.scan(step, (key, 0.0), xs)[1]


def keyed_branches(keys, x):
    def bad(k, v):
        return jnp.log(v - 3.0) + jax.random.uniform(k[0]) * 0.0  # NaN on devices 0 and 1

    return lax.cond(x[0] < 4.0, bad, lambda k, v: v, keys, x)


def traced_trip_count(x, n):
    def body(i, v):
        return v + jnp.log(3.0 - i)  # -inf at i = 3, NaN at i = 4

    return lax.fori_loop(0, n, body, x)


def data_parallel_step(w, x):
    g = lax.pmean(jnp.mean(x * w, axis=0), "b")  # averaged over b: varies over a only
    scale = jnp.sqrt(jnp.sum(x) - 10.0)  # NaN on the devices holding rows 0-5
    return w - 0.1 * lax.pmean(g * scale, ("a", "b"))


def masked_attention(q, k, mask):
    s = q @ k.T
    s = jnp.where(mask, s, -jnp.inf)  # the -inf of masked positions: on purpose
    m = jnp.max(s, axis=-1, keepdims=True)
    z = s - m  # -inf - -inf on a fully masked row: the NaN
    p = jnp.exp(z)
    return p / jnp.sum(p, axis=-1, keepdims=True)


def attention_layers(q, k, masks):
    def layer(h, mask):
        h = masked_attention(h, k, mask) @ k  # masks[2] masks a whole row
        return h, None

    return lax.scan(layer, q, masks)[0]


def nan_padding(x):
    return jnp.where(x > 0, x, jnp.nan) * 2.0  # a NaN constant, never computed


def unused_loss_step(w, x):
    _loss, _ = jax.value_and_grad(lambda v: jnp.exp(v * 20.0))(w)  # unused: +inf from step 1
    w = w * 10.0 * x  # used: +inf at step 38
    return w, None


def unused_loss_loop(w, xs):
    return lax.scan(unused_loss_step, w, xs)[0]


def batched_log_of_product(w, x):
    return jnp.log(w @ x)  # under vmap the product puts the batch last


def shared_log(w, x):
    return jnp.log(w) + x  # w is the same for every batch element


def long_fori(x, n):
    def body(i, v):
        return v + jnp.log(19991.0 - i)  # -inf at i = 19991, NaN from 19992

    return lax.fori_loop(0, n, body, x)


def masked_then_log(xs):
    def body(carry, x):
        pad = jnp.where(x == 50.0, -jnp.inf, 0.0)  # a constant -inf at step 50: no origin
        return carry + jnp.log(70.0 - x), pad  # -inf at step 70

    return lax.scan(body, 0.0, xs)

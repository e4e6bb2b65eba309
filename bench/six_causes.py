"""The six causes of the shipped notebook's training loop, as one function on ``jax.jit``
(whose own ``jax_explain_cache_misses`` is the peer: it reads only ``jax.jit``'s cache)."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp


def run_six_causes() -> None:
    """Trace ``step`` (and a metric) again for six causes: a batch shape, a weak type, a static
    value, a pytree key, a new function object and a context manager."""

    @functools.partial(jax.jit, static_argnames="mode")
    def step(params, state, batch, lr, mode="train"):
        def loss(p):
            return ((batch["x"] @ p["w"] - batch["y"]) ** 2).mean()

        grads = jax.grad(loss)(params)
        scale = 0.0 if mode == "eval" else lr
        params = jax.tree.map(lambda p, g: p - scale * g, params, grads)
        return params, {**state, "steps": state["steps"] + 1}

    def batch_of(n):
        return {"x": jnp.ones((n, 3)), "y": jnp.zeros((n, 1))}

    params = {"w": jnp.ones((3, 1))}
    state = {"steps": jnp.zeros((), jnp.int32)}
    lr = jnp.float32(0.1)
    params, state = step(params, state, batch_of(32), 0.1)
    params, state = step(params, state, batch_of(7), 0.1)  # 1. shape
    params, state = step(params, state, batch_of(7), lr)  # 2. weak type
    params, state = step(params, state, batch_of(7), lr, mode="train")  # 3. static value
    params, state = step(params, state, batch_of(7), lr, mode="eval")  # 3. static value
    state = {**state, "momentum": jnp.zeros(())}
    params, state = step(params, state, batch_of(7), lr, mode="eval")  # 4. pytree key
    for _ in range(2):
        jax.jit(lambda p: jnp.abs(p["w"]).sum())(params)  # 5. a new function object
    with jax.default_matmul_precision("highest"):
        params, state = step(params, state, batch_of(7), lr, mode="eval")  # 6. context

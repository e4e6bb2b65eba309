"""Programs as users write them, each with the line that holds most of its peak marked ``# PEAK``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

S = jax.ShapeDtypeStruct


def mlp_loss(w: Any, x: Any) -> Any:
    """Two tanh layers sharing one weight."""
    h = jnp.tanh(x @ w)
    h = jnp.tanh(h @ w)
    return (h**2).sum()


def scan_loss(ws: Any, x: Any) -> Any:
    """A stack of layers run by ``scan``: its grad keeps every layer's activation."""

    def body(h: Any, w: Any) -> tuple[Any, None]:
        return jnp.tanh(h @ w), None

    h, _ = jax.lax.scan(body, x, ws)  # PEAK
    return (h**2).sum()


def checkpointed_loss(ws: Any, x: Any) -> Any:
    """The same stack with each layer rematerialized in the backward pass."""

    def body(h: Any, w: Any) -> tuple[Any, None]:
        return jax.checkpoint(lambda h: jnp.tanh(jnp.tanh(h @ w) @ w))(h), None

    h, _ = jax.lax.scan(body, x, ws)
    return (h**2).sum()


def vmapped(w: Any, x: Any) -> Any:
    """A per-row two-layer map under ``vmap``."""
    return jax.vmap(lambda r: jnp.tanh(r @ w) @ w.T)(x)


def outer_sum(x: Any) -> Any:
    """A large temporary made and reduced on one line; the sort needs it whole, so no XLA fuses
    it away."""
    return jnp.sort(jnp.sin(jnp.outer(x, x) + 1.0), axis=0)[-1]  # PEAK


def sharded_structs() -> tuple[Any, Any]:
    """A weight sharded over 8 devices on its columns, a replicated batch: only structs."""
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:8]), ("d",))
    w = S((512, 1024), jnp.float32, sharding=NamedSharding(mesh, PartitionSpec(None, "d")))
    x = S((256, 512), jnp.float32, sharding=NamedSharding(mesh, PartitionSpec()))
    return w, x


def sharded_layer(w: Any, x: Any) -> Any:
    return jnp.tanh(x @ w).sum()


def sgd(w: Any, x: Any) -> Any:
    """One SGD step; jitted with the weight donated, so XLA aliases it to the output."""
    g = jax.grad(lambda w: jnp.tanh(x @ w).sum())(w)
    return w - 0.1 * g


def branchy(p: Any, x: Any) -> Any:
    """A ``cond`` whose one branch makes a large temporary."""
    return jax.lax.cond(p > 0, lambda x: jnp.sin(jnp.outer(x, x)).sum(0), lambda x: x * 2, x)


def iterated(x: Any) -> Any:
    """A ``fori_loop`` whose body makes a new state each step."""
    return jax.lax.fori_loop(0, 10, lambda i, h: jnp.tanh(h @ h.T), x)


def attention(q: Any, k: Any, v: Any) -> Any:
    scores = jnp.einsum("bqd,bkd->bqk", q, k)
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores), v).sum()


CORPUS: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
    "mlp grad": (jax.grad(mlp_loss), (S((512, 512), jnp.float32), S((256, 512), jnp.float32))),
    "scan grad": (
        jax.grad(scan_loss),
        (S((8, 512, 512), jnp.float32), S((256, 512), jnp.float32)),
    ),
    "checkpointed scan grad": (
        jax.grad(checkpointed_loss),
        (S((8, 512, 512), jnp.float32), S((256, 512), jnp.float32)),
    ),
    "vmap": (vmapped, (S((512, 512), jnp.float32), S((256, 512), jnp.float32))),
    "outer": (outer_sum, (S((2048,), jnp.float32),)),
    "sharded grad": (jax.jit(jax.grad(sharded_layer)), sharded_structs()),
    "cond": (branchy, (S((), jnp.float32), S((2048,), jnp.float32))),
    "fori_loop": (iterated, (S((512, 512), jnp.float32),)),
    "attention grad": (
        jax.grad(attention, argnums=(0, 1, 2)),
        tuple(S((4, 512, 64), jnp.float32) for _ in range(3)),
    ),
    "donated sgd": (
        jax.jit(sgd, donate_argnums=0),
        (S((1024, 1024), jnp.float32), S((256, 1024), jnp.float32)),
    ),
}


def marked_line(function: Callable[..., Any]) -> int:
    """The line number of ``# PEAK`` in ``function``'s source, read from the file itself."""
    lines, first = inspect.getsourcelines(function)
    for offset, text in enumerate(lines):
        if "# PEAK" in text:
            return first + offset
    raise AssertionError(f"{function.__name__} has no # PEAK line")

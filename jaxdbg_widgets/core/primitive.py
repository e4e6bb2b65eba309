"""``host_call_p``: the one primitive behind print, callback, log and breakpoint.

It carries a host function and a debug effect, stages out under every transformation like
``jax.debug``'s callback primitive, and adds two things: ``vmap_method="expand_dims"`` (one
host call per batch, told which operands are batched) and an optional predicate operand,
lowered inside a ``cond`` so nothing reaches the host where it is false.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import jax
import numpy as np
from jax import lax
from jax import numpy as jnp

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core.effects import effect_for
from jaxdbg_widgets.core.errors import DebuggerQuit, findable

logger = logging.getLogger("jaxdbg_widgets")

VMAP_METHODS = ("sequential", "expand_dims")


@dataclass(frozen=True)
class Batch:
    """How a host call was batched by ``vmap`` with ``vmap_method="expand_dims"``.

    ``shape`` holds the vmap axis sizes, outermost first; batched operands carry them as
    leading axes. ``indices`` (predicated calls only) are the flat indices of the elements
    where the predicate held; the operands then hold only those elements, on one axis.
    """

    shape: tuple[int, ...]
    batched: tuple[bool, ...]
    indices: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return math.prod(self.shape)


HostFn = Callable[[Sequence[Any], "Batch | None"], None]

host_call_p = jx.Primitive("jaxdbg_host_call")
host_call_p.multiple_results = True


def check_vmap_method(vmap_method: str) -> None:
    """Reject a ``vmap_method`` this runtime does not implement."""
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be one of {list(VMAP_METHODS)}, but got: {vmap_method!r}"
        )


def bind(
    args: Sequence[Any],
    host_fn: HostFn,
    *,
    ordered: bool = False,
    partitioned: bool = False,
    vmap_method: str = "sequential",
    pred: Any = None,
    numpy_operands: bool = False,
) -> None:
    """Stage ``host_fn(args, batch)`` at this point of the program.

    ``numpy_operands=True`` hands ``host_fn`` the host's numpy arrays as they are, skipping the
    copy into JAX arrays; only for host functions that run no user code (formatting).
    """
    check_vmap_method(vmap_method)
    operands = list(args) if pred is None else [pred, *args]
    if not jx.HOST_CALL:
        _bind_through_jax_debug(operands, host_fn, ordered, pred is not None, numpy_operands)
        return
    host_call_p.bind(
        *operands,
        host_fn=host_fn,
        effect=effect_for(ordered),
        partitioned=partitioned,
        vmap_method=vmap_method,
        batch=None,
        has_pred=pred is not None,
        guarded=False,
        numpy_operands=numpy_operands,
    )


def _bind_through_jax_debug(operands, host_fn: HostFn, ordered, has_pred, numpy_operands) -> None:
    """Without the primitive (this JAX lacks what it needs): one ``jax.debug.callback`` per call."""

    def host(*values: Any) -> None:
        run_host(host_fn, values, batch=None, has_pred=has_pred, numpy_operands=numpy_operands)

    jax.debug.callback(host, *operands, ordered=ordered)


def current_thread_id() -> int | None:
    """``None`` on the main thread, else the thread's ident (JAX's convention)."""
    if threading.current_thread() is threading.main_thread():
        return None
    return threading.get_ident()


def _select(values: list[Any], batch: Batch | None) -> tuple[list[Any], Batch | None] | None:
    """Apply the predicate (``values[0]``): ``None`` when it holds nowhere."""
    pred, *values = values
    if batch is None or not batch.batched[0]:
        if not np.any(np.asarray(pred)):
            return None
        return values, None if batch is None else Batch(batch.shape, batch.batched[1:])
    chosen = np.flatnonzero(np.asarray(pred).reshape(-1))
    if chosen.size == 0:
        return None
    rank = len(batch.shape)
    picked = [
        v.reshape((batch.size, *v.shape[rank:]))[chosen] if flag else v
        for v, flag in zip(values, batch.batched[1:], strict=True)
    ]
    return picked, Batch((int(chosen.size),), batch.batched[1:], tuple(int(i) for i in chosen))


def _call(host_fn: HostFn, values: list[Any], batch: Batch | None) -> None:
    try:
        host_fn(values, batch)
    except (DebuggerQuit, KeyboardInterrupt):
        raise
    except BaseException as error:
        logger.warning("a debug callback raised %s: %s", type(error).__name__, error)
        raise


def run_host(
    host_fn: HostFn,
    operands: Sequence[Any],
    *,
    batch: Batch | None,
    has_pred: bool,
    numpy_operands: bool = False,
) -> None:
    """Run ``host_fn`` with JAX arrays on the CPU device and no ambient mesh, as ``jax.debug``."""
    if numpy_operands:
        _call_selected(host_fn, [_as_numpy(v) for v in operands], batch, has_pred)
        return
    values = jx.to_host_arrays(list(operands))
    with jx.host_context():
        _call_selected(host_fn, values, batch, has_pred)


def _call_selected(host_fn: HostFn, values: list[Any], batch: Batch | None, has_pred: bool) -> None:
    """Call ``host_fn``, first applying the predicate operand when there is one."""
    if has_pred:
        selected = _select(values, batch)
        if selected is None:
            return
        values, batch = selected
    _call(host_fn, values, batch)


def _as_numpy(value: Any) -> Any:
    """``value`` as a numpy array, except arrays of extended dtypes (PRNG keys) kept as they are."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.extended):
        return value
    return np.asarray(value)


@host_call_p.def_impl
def _impl(*operands, host_fn, batch, has_pred, numpy_operands, **params):
    """Run the host call now (no ``jit``); numpy operands are the caller's, so they are copied."""
    del params
    operands = tuple(np.array(v) if isinstance(v, np.ndarray) else v for v in operands)
    run_host(host_fn, operands, batch=batch, has_pred=has_pred, numpy_operands=numpy_operands)
    return []


@host_call_p.def_effectful_abstract_eval
def _abstract_eval(*avals, effect, **params):
    del avals, params
    return [], {effect}


def _expand(operands, dims, size: int, batch: Batch | None):
    """Move the new batch axis to the front; broadcast so all batched operands share it."""
    inner = batch.shape if batch else ()
    was = batch.batched if batch else (False,) * len(operands)
    expanded = []
    for x, dim, before in zip(operands, dims, was, strict=True):
        if dim is not None:
            x = jnp.moveaxis(x, dim, 0)
            if not before and inner:
                rest = x.shape[1:]
                x = lax.broadcast_in_dim(
                    x,
                    (size, *inner, *rest),
                    (0, *range(1 + len(inner), 1 + len(inner) + len(rest))),
                )
        elif before:
            x = jnp.broadcast_to(x, (size, *x.shape))
        expanded.append(x)
    batched = tuple(d is not None or b for d, b in zip(dims, was, strict=True))
    return expanded, Batch((size, *inner), batched)


def _batch_rule(operands, dims, *, vmap_method, batch, **params):
    size = next(x.shape[d] for x, d in zip(operands, dims, strict=True) if d is not None)
    if vmap_method == "sequential":
        for i in range(size):
            element = [
                x if d is None else lax.index_in_dim(x, i, d, keepdims=False)
                for x, d in zip(operands, dims, strict=True)
            ]
            host_call_p.bind(*element, vmap_method=vmap_method, batch=batch, **params)
        return [], []
    expanded, new_batch = _expand(operands, dims, size, batch)
    host_call_p.bind(*expanded, vmap_method=vmap_method, batch=new_batch, **params)
    return [], []


jx.primitive_batchers[host_call_p] = _batch_rule


def _jvp_rule(primals, tangents, **params):
    del tangents
    return host_call_p.bind(*primals, **params), []


def _transpose_rule(cotangents, *operands, **params):
    del cotangents, params
    return [None] * len(operands)


jx.primitive_jvps[host_call_p] = _jvp_rule
jx.primitive_transposes[host_call_p] = _transpose_rule


def _partial_eval_custom(saveable, unks_in, inst_in, eqn):
    """Stage the host call wherever it can still see values, as ``jax.debug`` does.

    With unknown inputs it runs in the staged (backward or recomputed) part only; with all
    inputs known it runs in the known part, and also in the staged part when the remat
    policy does not save it or every input is instantiated there.
    """
    if any(unks_in):
        residuals = [v for v, inst in zip(eqn.invars, inst_in, strict=True) if not inst]
        return None, eqn, [], [], residuals
    if saveable(host_call_p, *[v.aval for v in eqn.invars], **eqn.params):
        return eqn, (eqn if all(inst_in) else None), [], [], []
    return eqn, eqn, [], [], []


jx.partial_eval_custom_rules[host_call_p] = _partial_eval_custom


@jx.register_discharge_rule(host_call_p)
def _discharge_rule(in_avals, out_avals, *operands, **params):
    """The host call reads its operands and writes no reference: nothing to discharge."""
    del out_avals
    return [None] * len(in_avals), host_call_p.bind(*operands, **params)


def _guarded(pred, *args, **params):
    """Enter the host call only where ``pred`` holds anywhere (no transfer otherwise)."""

    def call():
        host_call_p.bind(pred, *args, **params)
        return ()

    lax.cond(jnp.any(pred), call, lambda: ())
    return []


def _on_first_auto_index(auto_axes, *operands, **params):
    """Under a partly manual ``shard_map``: call once, where the automatic axes' index is 0."""

    def call():
        host_call_p.bind(*operands, **params)
        return ()

    def body():
        lax.cond(lax.axis_index(auto_axes) == 0, call, lambda: ())
        return []

    jx.shard_map_no_operands(body)()
    return []


def _lowering(
    ctx,
    *operands,
    host_fn,
    effect,
    partitioned,
    vmap_method,
    batch,
    has_pred,
    guarded,
    numpy_operands,
):
    params = dict(
        host_fn=host_fn,
        effect=effect,
        partitioned=partitioned,
        vmap_method=vmap_method,
        batch=batch,
        has_pred=has_pred,
        numpy_operands=numpy_operands,
    )
    if has_pred and not guarded:
        return jx.lower_fun(partial(_guarded, **params, guarded=True))(ctx, *operands)
    sharding, auto_axes = jx.callback_sharding(ctx)
    if auto_axes:
        rule = partial(_on_first_auto_index, auto_axes, **params, guarded=guarded)
        return jx.lower_fun(rule)(ctx, *operands)

    @findable
    def host(*flat):
        run_host(host_fn, flat, batch=batch, has_pred=has_pred, numpy_operands=numpy_operands)
        return ()

    jx.lower_with_effect_token(
        ctx,
        effect,
        lambda token: jx.emit_host_call(
            ctx,
            host,
            operands,
            token=token,
            partitioned=partitioned,
            sharding=None if token is not None else sharding,
        ),
    )
    return []


if jx.HOST_CALL:
    jx.register_host_lowering(host_call_p, _lowering)

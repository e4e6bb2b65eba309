"""The host-call primitive behind print, callback, log and breakpoint.

It carries a host function and a debug effect, stages out under every transformation like
``jax.debug``'s callback primitive, and adds two things: ``vmap_method="expand_dims"`` (one
host call per batch, told which operands are batched) and an optional predicate operand,
lowered inside a ``cond`` so nothing reaches the host where it is false.

Its rules are written once and registered under one name per front end (``jaxdbg_print``,
``jaxdbg_log``, ``jaxdbg_callback``, ``jaxdbg_breakpoint``), so a printed jaxpr says which
one it is; its ``callback`` parameter shows what is called (``print('x={x}')``, the user's
function, ``breakpoint(backend='cli')``).
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
    where the predicate held; the operands then hold only those elements, on one axis, and
    ``total`` is how many elements the whole batch has.
    """

    shape: tuple[int, ...]
    batched: tuple[bool, ...]
    indices: tuple[int, ...] | None = None
    total: int | None = None

    @property
    def size(self) -> int:
        return math.prod(self.shape)


HostFn = Callable[[Sequence[Any], "Batch | None"], None]

KINDS = ("print", "log", "callback", "breakpoint")


@dataclass(frozen=True, eq=False)
class HostCall:
    """A host function, the front end that staged it, and what a printed jaxpr shows for it."""

    fn: HostFn
    kind: str
    shown: str

    def __call__(self, values: Sequence[Any], batch: Batch | None) -> None:
        self.fn(values, batch)

    def __str__(self) -> str:
        return self.shown


def _host_call_primitive(kind: str) -> Any:
    primitive = jx.Primitive(f"jaxdbg_{kind}")
    primitive.multiple_results = True
    return primitive


PRIMITIVES = {kind: _host_call_primitive(kind) for kind in KINDS}
"""One primitive per front end, all with the same rules (registered below)."""


def check_vmap_method(vmap_method: str) -> None:
    """Reject a ``vmap_method`` this runtime does not implement."""
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be one of {list(VMAP_METHODS)}, but got: {vmap_method!r}"
        )


def bind(
    args: Sequence[Any],
    call: HostCall,
    *,
    ordered: bool = False,
    partitioned: bool = False,
    vmap_method: str = "sequential",
    pred: Any = None,
    numpy_operands: bool = False,
) -> None:
    """Stage ``call(args, batch)`` at this point of the program, as ``call.kind``'s primitive.

    ``numpy_operands=True`` hands ``call`` the host's numpy arrays as they are, skipping the
    copy into JAX arrays; only for host functions that run no user code (formatting).
    """
    check_vmap_method(vmap_method)
    operands = list(args) if pred is None else [pred, *args]
    if not jx.HOST_CALL:
        _bind_through_jax_debug(operands, call, ordered, pred is not None, numpy_operands)
        return
    PRIMITIVES[call.kind].bind(
        *operands,
        callback=call,
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
    indices = tuple(int(i) for i in chosen)
    return picked, Batch((int(chosen.size),), batch.batched[1:], indices, batch.size)


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


def _impl(*operands, callback, batch, has_pred, numpy_operands, **params):
    """Run the host call now (no ``jit``); numpy operands are the caller's, so they are copied."""
    del params
    operands = tuple(np.array(v) if isinstance(v, np.ndarray) else v for v in operands)
    run_host(callback, operands, batch=batch, has_pred=has_pred, numpy_operands=numpy_operands)
    return []


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


def _batch_rule(primitive, operands, dims, *, vmap_method, batch, **params):
    size = next(x.shape[d] for x, d in zip(operands, dims, strict=True) if d is not None)
    if vmap_method == "sequential":
        for i in range(size):
            element = [
                x if d is None else lax.index_in_dim(x, i, d, keepdims=False)
                for x, d in zip(operands, dims, strict=True)
            ]
            primitive.bind(*element, vmap_method=vmap_method, batch=batch, **params)
        return [], []
    expanded, new_batch = _expand(operands, dims, size, batch)
    primitive.bind(*expanded, vmap_method=vmap_method, batch=new_batch, **params)
    return [], []


def _jvp_rule(primitive, primals, tangents, **params):
    del tangents
    return primitive.bind(*primals, **params), []


def _transpose_rule(cotangents, *operands, **params):
    del cotangents, params
    return [None] * len(operands)


def _partial_eval_custom(saveable, unks_in, inst_in, eqn):
    """Stage the host call wherever it can still see values, as ``jax.debug`` does.

    With unknown inputs it runs in the staged (backward or recomputed) part only; with all
    inputs known it runs in the known part, and also in the staged part when the remat
    policy does not save it or every input is instantiated there.
    """
    if any(unks_in):
        residuals = [v for v, inst in zip(eqn.invars, inst_in, strict=True) if not inst]
        return None, eqn, [], [], residuals
    if saveable(eqn.primitive, *[v.aval for v in eqn.invars], **eqn.params):
        return eqn, (eqn if all(inst_in) else None), [], [], []
    return eqn, eqn, [], [], []


def _discharge_rule(primitive, in_avals, out_avals, *operands, **params):
    """The host call reads its operands and writes no reference: nothing to discharge."""
    del out_avals
    return [None] * len(in_avals), primitive.bind(*operands, **params)


def _guarded(primitive, pred, *args, **params):
    """Enter the host call only where ``pred`` holds anywhere (no transfer otherwise)."""

    def call():
        primitive.bind(pred, *args, **params)
        return ()

    lax.cond(jnp.any(pred), call, lambda: ())
    return []


def _on_first_auto_index(primitive, auto_axes, *operands, **params):
    """Under a partly manual ``shard_map``: call once, where the automatic axes' index is 0."""

    def call():
        primitive.bind(*operands, **params)
        return ()

    def body():
        lax.cond(lax.axis_index(auto_axes) == 0, call, lambda: ())
        return []

    jx.shard_map_no_operands(body)()
    return []


def _lowering(
    primitive,
    ctx,
    *operands,
    callback,
    effect,
    partitioned,
    vmap_method,
    batch,
    has_pred,
    guarded,
    numpy_operands,
):
    params = dict(
        callback=callback,
        effect=effect,
        partitioned=partitioned,
        vmap_method=vmap_method,
        batch=batch,
        has_pred=has_pred,
        numpy_operands=numpy_operands,
    )
    if has_pred and not guarded:
        rule = partial(_guarded, primitive, **params, guarded=True)
        return jx.lower_fun(rule)(ctx, *operands)
    sharding, auto_axes = jx.callback_sharding(ctx)
    if auto_axes:
        rule = partial(_on_first_auto_index, primitive, auto_axes, **params, guarded=guarded)
        return jx.lower_fun(rule)(ctx, *operands)

    mesh = jx.lowering_mesh(ctx)

    @findable
    def host(*flat):
        before, _running.mesh = lowered_mesh(), mesh
        try:
            run_host(callback, flat, batch=batch, has_pred=has_pred, numpy_operands=numpy_operands)
        finally:
            _running.mesh = before
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


_running = threading.local()


def lowered_mesh() -> Any:
    """The concrete mesh of the ``shard_map`` whose host call runs on this thread, if known."""
    return getattr(_running, "mesh", None)


def _register(primitive: Any) -> None:
    """Give ``primitive`` the host call's evaluation, transformation and lowering rules."""
    primitive.def_impl(_impl)
    primitive.def_effectful_abstract_eval(_abstract_eval)
    jx.primitive_batchers[primitive] = partial(_batch_rule, primitive)
    jx.primitive_jvps[primitive] = partial(_jvp_rule, primitive)
    jx.primitive_transposes[primitive] = _transpose_rule
    jx.partial_eval_custom_rules[primitive] = _partial_eval_custom
    jx.register_discharge_rule(primitive)(partial(_discharge_rule, primitive))
    if jx.HOST_CALL:
        jx.register_host_lowering(primitive, partial(_lowering, primitive))


for _primitive in PRIMITIVES.values():
    _register(_primitive)

"""``breakpoint``, ``breakpoint_if`` and ``breakpoint_if_nonfinite`` on the core primitive.

The backend is looked up in JAX's debugger registry when the breakpoint is hit and called
as ``backend(frames, thread_id, **kwargs)`` under one lock. Under ``vmap`` the default is one
session per batch (``batch_size=N`` passed, batched locals stacked on axis 0). Under
``shard_map`` the shard's mesh position is staged too and passed as ``device="CPU 3 (x=3)"``
(or ``"x=3"`` when the concrete mesh is not known at trace time).
"""

from __future__ import annotations

import inspect
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import jax
from jax import numpy as jnp

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.frames import CapturedFrames, capture
from jaxdbg_widgets.core.primitive import (
    Batch,
    bind,
    check_vmap_method,
    current_thread_id,
    run_host,
)

debug_lock = threading.RLock()
"""Serialises debugger sessions: breakpoints hit on several threads are served in turn."""

_BATCH_KWARGS = ("batch_size", "batch_indices")


def _accepts(backend: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(backend).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD or p.name == name for p in parameters)


@dataclass(frozen=True)
class _Shard:
    """The manual mesh axes a breakpoint was traced under, their staged indices and the mesh."""

    axes: tuple[str, ...]
    operands: tuple[Any, ...]
    mesh: Any = None

    def label(self, indices: Sequence[Any]) -> str:
        """``CPU 3 (x=3)`` when the mesh is known, else the mesh position ``x=3``."""
        position = {name: int(i) for name, i in zip(self.axes, indices, strict=True)}
        where = ", ".join(f"{name}={i}" for name, i in position.items())
        if self.mesh is None:
            return where
        device = self.mesh.devices[tuple(position.get(n, 0) for n in self.mesh.axis_names)]
        return f"{device.platform.upper()} {device.id} ({where})"


def _shard() -> _Shard | None:
    """Under ``shard_map``, stage ``axis_index`` of each manual axis; ``None`` elsewhere."""
    axes = jx.manual_axes()
    if not axes:
        return None
    operands = tuple(jax.lax.axis_index(name) for name in axes)
    return _Shard(axes, operands, jx.concrete_mesh())


def _operands(captured: CapturedFrames, shard: _Shard | None) -> tuple[Any, ...]:
    return captured.operands if shard is None else (*captured.operands, *shard.operands)


def _flatten_batch(values: list[Any], batch: Batch) -> list[Any]:
    """Stack batched values along one leading axis (nested vmaps flattened)."""
    rank = len(batch.shape)
    return [
        jnp.reshape(v, (batch.size, *v.shape[rank:])) if flag and rank != 1 else v
        for v, flag in zip(values, batch.batched, strict=True)
    ]


def _session(
    backend_name: str | None,
    captured: CapturedFrames,
    kwargs: dict[str, Any],
    shard: _Shard | None = None,
):
    count = len(captured.operands)

    def host(values, batch: Batch | None) -> None:
        extra: dict[str, Any] = {}
        values, indices = list(values[:count]), values[count:]
        if shard is not None and "device" not in kwargs:
            extra["device"] = shard.label(indices)
        if batch is None:
            frames = captured.rebuild(values)
        else:
            batch = replace(batch, batched=batch.batched[:count])
            frames = captured.rebuild(_flatten_batch(values, batch), batch.batched)
            extra["batch_size"] = batch.size if batch.indices is None else len(batch.indices)
            if batch.indices is not None:
                extra["batch_indices"] = batch.indices
        backend = jax_registry.lookup(backend_name)
        extra = {k: v for k, v in extra.items() if _accepts(backend, k)}
        with debug_lock:
            try:
                backend(frames, current_thread_id(), **kwargs, **extra)
            except SystemExit as exit_:
                raise DebuggerQuit() from exit_

    return host


def _check(ordered: bool, token: Any, vmap_method: str, kwargs: dict[str, Any]) -> None:
    if token is not None and ordered:
        raise ValueError("`ordered` and `token` are mutually exclusive arguments.")
    check_vmap_method(vmap_method)
    reserved = [name for name in _BATCH_KWARGS if name in kwargs]
    if reserved:
        raise TypeError(f"breakpoint sets {reserved} itself; do not pass them")


def _with_token(token: Any, operands: tuple[Any, ...], host_fn) -> Any:
    """Run the session once ``token`` is computed and return it (JAX's ``token=`` form)."""
    token, operands = jax.lax.stop_gradient((token, operands))

    def run(token_value, *values):
        run_host(host_fn, values, batch=None, has_pred=False)
        return token_value

    shapes = jax.tree_util.tree_map(lambda t: jax.ShapeDtypeStruct(t.shape, t.dtype), token)
    return jax.pure_callback(run, shapes, token, *operands, vmap_method="sequential")


def breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    vmap_method: str = "expand_dims",
    **kwargs: Any,
) -> Any:
    """Enter the debugger here, like ``jax.debug.breakpoint``.

    Under ``vmap`` the default ``vmap_method="expand_dims"`` opens one session per batch;
    ``"sequential"`` opens one per element as JAX does.
    """
    _check(ordered, token, vmap_method, kwargs)
    captured = capture(filter_frames=filter_frames, num_frames=num_frames)
    shard = _shard()
    host_fn = _session(backend, captured, kwargs, shard)
    if token is not None:
        return _with_token(token, _operands(captured, shard), host_fn)
    bind(_operands(captured, shard), host_fn, ordered=ordered, vmap_method=vmap_method)
    return None


def breakpoint_if(
    pred: Any,
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    vmap_method: str = "expand_dims",
    **kwargs: Any,
) -> None:
    """Enter the debugger only where the boolean scalar ``pred`` holds (per element under vmap).

    The check runs on device: nothing reaches the host where ``pred`` is false. Under ``vmap``
    the session sees only the elements where it holds, and their indices as ``batch_indices``.
    """
    _check(ordered, None, vmap_method, kwargs)
    pred = jnp.asarray(pred)
    if pred.shape != () or pred.dtype != jnp.bool_:
        raise TypeError(
            "breakpoint_if needs a boolean scalar predicate, "
            f"but got {pred.dtype}{list(pred.shape)}"
        )
    captured = capture(filter_frames=filter_frames, num_frames=num_frames)
    shard = _shard()
    bind(
        _operands(captured, shard),
        _session(backend, captured, kwargs, shard),
        ordered=ordered,
        vmap_method=vmap_method,
        pred=pred,
    )


def _nonfinite(leaf: Any) -> Any:
    leaf = jnp.asarray(leaf)
    if not jnp.issubdtype(leaf.dtype, jnp.inexact) or math.prod(leaf.shape) == 0:
        return jnp.bool_(False)
    return jnp.any(~jnp.isfinite(leaf))


def breakpoint_if_nonfinite(*arrays: Any, **kwargs: Any) -> None:
    """Enter the debugger where any floating value in ``arrays`` (pytrees) is NaN or infinite."""
    leaves = jax.tree_util.tree_leaves(arrays)
    if not leaves:
        raise TypeError("breakpoint_if_nonfinite needs at least one array to check")
    pred = jnp.any(jnp.stack([_nonfinite(leaf) for leaf in leaves]))
    breakpoint_if(pred, **kwargs)

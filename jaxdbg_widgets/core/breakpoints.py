"""``breakpoint``, ``breakpoint_if`` and ``breakpoint_if_nonfinite`` on the core primitive.

The backend is looked up in JAX's debugger registry when the breakpoint is hit and called
as ``backend(frames, thread_id, **kwargs)`` under one lock. Under ``vmap`` the default is one
session per batch (``batch_size=N`` passed, batched locals stacked on axis 0). Under
``shard_map`` the shard's mesh position is staged too and passed as data, ``shard=ShardPlace``
(:mod:`jaxdbg_widgets.core.shard_place`), and as its label ``device="CPU 3 (x=3)"`` (``"x=3"``
when the concrete mesh is not known at trace time), with the manual axes' sizes as
``axis_sizes=(8,)``.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import jax
from jax import numpy as jnp

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.frames import CapturedFrames, Frame, JaxFrames, capture, capture_as_jax
from jaxdbg_widgets.core.primitive import (
    Batch,
    HostCall,
    bind,
    check_vmap_method,
    current_thread_id,
    lowered_mesh,
    run_host,
)
from jaxdbg_widgets.core.shard_place import ShardPlace, device_name


class _OneSessionAtATime:
    """The one lock that serialises breakpoint sessions, whichever thread hits them.

    A hit on a thread that is already serving a session (an expression evaluated at a
    breakpoint that reaches another one) is not served: waiting for itself would deadlock.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._here = threading.local()

    @contextlib.contextmanager
    def serve(self) -> Iterator[bool]:
        """Hold the session lock; yields ``False`` (holding nothing) on a re-entered thread."""
        if getattr(self._here, "serving", False):
            yield False
            return
        with self._lock:
            self._here.serving = True
            try:
                yield True
            finally:
                self._here.serving = False

    @contextlib.contextmanager
    def released(self) -> Iterator[None]:
        """Let other threads' hits in while this one waits (the shards of a run gathering)."""
        if not getattr(self._here, "serving", False):
            yield
            return
        self._here.serving = False
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
            self._here.serving = True


sessions = _OneSessionAtATime()
"""Every breakpoint backend call goes through ``sessions.serve()``."""

_BATCH_KWARGS = ("batch_size", "batch_indices", "batch_total")


def _accepts(backend: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(backend).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD or p.name == name for p in parameters)


class _CantFlatten:
    """Stands for a local that JAX's debugger frames cannot hold (a dict with unsortable keys)."""

    def __repr__(self) -> str:
        return "<cant_flatten>"


_CANT_FLATTEN = _CantFlatten()


def _flattenable(value: Any) -> Any:
    try:
        jax.tree_util.tree_leaves(value)
    except Exception:
        return _CANT_FLATTEN
    return value


def _as_jax_frame(frame: Frame) -> Frame:
    """``frame`` as JAX's own breakpoint shows it: no globals, unflattenable locals replaced."""
    local_values = {name: _flattenable(value) for name, value in frame.locals.items()}
    return replace(frame, locals=local_values, globals={}, batched={})


def _is_ours(backend: Callable[..., Any]) -> bool:
    """Whether ``backend`` is one this package provides (else JAX's or a user's own)."""
    module = getattr(backend, "__module__", None) or ""
    return module.split(".")[0] == "jaxdbg_widgets"


def _served_by_foreign(backend_name: str | None) -> bool:
    """Whether ``backend_name`` now names a backend not ours (so it gets JAX's own frames)."""
    try:
        return not _is_ours(jax_registry.lookup(backend_name))
    except RuntimeError:
        return False


@dataclass(frozen=True)
class _Shard:
    """The manual mesh axes a breakpoint was traced under, their staged indices and the mesh."""

    axes: tuple[str, ...]
    operands: tuple[Any, ...]
    mesh: Any = None
    sizes: tuple[int, ...] = ()

    def place(self, indices: Sequence[Any]) -> ShardPlace:
        """The hit's place: its mesh position, and its device when the mesh is known (set with
        ``jax.set_mesh`` when traced, or the mesh the ``shard_map`` was compiled for)."""
        position = tuple((name, int(i)) for name, i in zip(self.axes, indices, strict=True))
        mesh = self.mesh if self.mesh is not None else lowered_mesh()
        at = dict(position)
        names = tuple(getattr(mesh, "axis_names", ()))
        if mesh is None or not set(at) <= set(names):
            return ShardPlace(position)
        device = mesh.devices[tuple(at.get(n, 0) for n in names)]
        return ShardPlace(position, device_name(device))


def _shard() -> _Shard | None:
    """Under ``shard_map``, stage ``axis_index`` of each manual axis; ``None`` elsewhere."""
    axes = jx.manual_axes()
    if not axes:
        return None
    operands = tuple(jax.lax.axis_index(name) for name in axes)
    sizes = tuple(int(jax.lax.psum(1, name)) for name in axes)
    return _Shard(axes, operands, jx.concrete_mesh(), sizes)


def _operands(captured: CapturedFrames | JaxFrames, shard: _Shard | None) -> tuple[Any, ...]:
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
    captured: CapturedFrames | JaxFrames,
    kwargs: dict[str, Any],
    shard: _Shard | None = None,
    *,
    per_element: bool = False,
) -> HostCall:
    """The host function of one breakpoint: rebuild its frames and enter the backend.

    Under ``vmap`` it enters once with the whole batch stacked, or with ``per_element`` once
    per element in order (``jax.debug.breakpoint``'s behaviour), labelled with its index;
    ``per_element`` hits served by a backend not ours get exactly what JAX would pass.
    """
    count = len(captured.operands)

    def host(values, batch: Batch | None) -> None:
        values, indices = list(values[:count]), values[count:]
        place = shard.place(indices) if shard is not None else None
        sizes = shard.sizes if shard is not None else None
        where = {"device": place.label if place else None, "shard": place, "axis_sizes": sizes}
        if batch is None:
            _enter(backend_name, captured.rebuild(values), kwargs, where, as_jax=per_element)
            return
        batch = replace(batch, batched=batch.batched[:count])
        stacked = _flatten_batch(values, batch)
        elements = list(range(batch.size)) if batch.indices is None else list(batch.indices)
        if not per_element:
            extra = dict(where, batch_size=len(elements))
            if batch.indices is not None:
                extra["batch_indices"] = batch.indices
                extra["batch_total"] = batch.total
            _enter(backend_name, captured.rebuild(stacked, batch.batched), kwargs, extra)
            return
        for position, element in enumerate(elements):
            one = [
                v[position] if flag else v for v, flag in zip(stacked, batch.batched, strict=True)
            ]
            at = (place or ShardPlace()).with_element(element)
            extra = {"device": at.label, "shard": at, "axis_sizes": sizes}
            _enter(backend_name, captured.rebuild(one), kwargs, extra, as_jax=True)

    return HostCall(host, "breakpoint", f"breakpoint(backend={backend_name!r})")


def _enter(
    backend_name: str | None,
    frames: list[Any],
    kwargs: dict[str, Any],
    extra: dict[str, Any],
    *,
    as_jax: bool = False,
) -> None:
    """Call the backend under the session lock, passing only the ``extra`` it accepts.

    With ``as_jax`` a backend not ours (JAX's ``cli``, ``colab``, a user's) is called exactly
    as ``jax.debug.breakpoint`` would call it: JAX's frames, no extras, its ``SystemExit``.
    Frames captured as ours (the backend changed since tracing, or this JAX lacks its frame
    type) are shown as JAX would show them.
    """
    backend = jax_registry.lookup(backend_name)
    like_jax = as_jax and not _is_ours(backend)
    if like_jax:
        frames = [_as_jax_frame(f) if isinstance(f, Frame) else f for f in frames]
        extra = {}
    extra = {
        k: v for k, v in extra.items() if v is not None and k not in kwargs and _accepts(backend, k)
    }
    with sessions.serve() as serving:
        if not serving:
            print("jaxdbg: breakpoint hit while evaluating at a breakpoint; continuing", flush=True)
            return
        try:
            backend(frames, current_thread_id(), **kwargs, **extra)
        except SystemExit as exit_:
            if like_jax:
                raise
            raise DebuggerQuit() from exit_


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
    return _breakpoint(backend, filter_frames, num_frames, ordered, token, vmap_method, kwargs)


def jax_breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
) -> Any:
    """``jax.debug.breakpoint`` on this package's primitive, as ``%load_ext jaxdbg`` installs it.

    Same signature and behaviour, one session per ``vmap`` element in order. Served by our
    backend, the frames keep their globals and a hit names its device and ``vmap`` element;
    any other backend (``cli``, ``colab``, a user's) gets exactly JAX's frames, captured by
    JAX's own code, and JAX's arguments.
    """
    return _breakpoint(
        backend, filter_frames, num_frames, ordered, token, "expand_dims", kwargs, per_element=True
    )


def _breakpoint(
    backend: str | None,
    filter_frames: bool,
    num_frames: int | None,
    ordered: bool,
    token: Any,
    vmap_method: str,
    kwargs: dict[str, Any],
    *,
    per_element: bool = False,
) -> Any:
    _check(ordered, token, vmap_method, kwargs)
    captured: CapturedFrames | JaxFrames | None = None
    if per_element and _served_by_foreign(backend):
        captured = capture_as_jax(filter_frames=filter_frames, num_frames=num_frames)
    if captured is None:
        captured = capture(filter_frames=filter_frames, num_frames=num_frames)
    shard = _shard()
    host_fn = _session(backend, captured, kwargs, shard, per_element=per_element)
    if token is not None:
        return _with_token(token, _operands(captured, shard), host_fn)
    bind(_operands(captured, shard), host_fn, ordered=ordered, vmap_method=vmap_method)
    return None


def route_jax_debug_breakpoint() -> Callable[[], None]:
    """Make ``jax.debug.breakpoint`` :func:`jax_breakpoint`; the returned undo puts JAX's back."""
    original = jax.debug.breakpoint
    jax.debug.breakpoint = jax_breakpoint

    def undo() -> None:
        jax.debug.breakpoint = original

    return undo


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
    the session sees only the elements where it holds, their indices as ``batch_indices`` and
    the whole batch's size as ``batch_total``.
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

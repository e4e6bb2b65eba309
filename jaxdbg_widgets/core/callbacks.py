"""``callback``: ``jax.debug.callback`` on the core primitive, with ``vmap_method``.

With ``vmap_method="expand_dims"`` the callback runs once per batch on arrays with leading
batch axes; ``current_batch()`` tells it the batch shape and which arguments are batched.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import jax

from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core.arguments import SplitArguments, split_arguments, stage_or_defer
from jaxdbg_widgets.core.primitive import Batch, HostCall, bind, check_vmap_method

_JAX_CALLBACK = jax.debug.callback
"""JAX's own callback, which Pallas knows how to lower inside a kernel (ours has no rule there)."""


@dataclass(frozen=True)
class BatchInfo:
    """The batch a callback is running on: vmap axis sizes and the batched arguments.

    ``batched`` mirrors the callback's ``(args, kwargs)``: ``True`` at each array leaf that
    carries the leading batch axes, ``False`` elsewhere.
    """

    shape: tuple[int, ...]
    batched: tuple[tuple[Any, ...], dict[str, Any]]


_current = threading.local()


def current_batch() -> BatchInfo | None:
    """The batch of the running ``expand_dims`` callback, ``None`` outside one."""
    return getattr(_current, "batch", None)


@contextmanager
def _running_batch(info: BatchInfo | None):
    previous = current_batch()
    _current.batch = info
    try:
        yield
    finally:
        _current.batch = previous


def _batch_info(split: SplitArguments, batch: Batch | None) -> BatchInfo | None:
    if batch is None:
        return None
    merged = split.merge(batch.batched)
    return BatchInfo(batch.shape, jax.tree_util.tree_map(lambda leaf: leaf is True, merged))


def _shown(fn: Callable[..., Any]) -> str:
    """How a printed jaxpr names the user's function: its qualified name (``<lambda>``)."""
    return getattr(fn, "__qualname__", None) or type(fn).__qualname__


def _callback_host_fn(fn: Callable[..., Any], split: SplitArguments):
    def host(values, batch: Batch | None) -> None:
        args, kwargs = split.merge(values)
        if batch is None and current_batch() is None:
            fn(*args, **kwargs)
            return
        with _running_batch(_batch_info(split, batch)):
            fn(*args, **kwargs)

    return host


def callback(
    callback: Callable[..., None] | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    vmap_method: str = "sequential",
    **kwargs: Any,
) -> Callable[..., None] | None:
    """Call a Python function from staged JAX code, like ``jax.debug.callback``."""
    return _callback_or_stage(
        "jaxdbg_widgets.callback",
        "jaxdbg_widgets.callback",
        callback,
        args,
        kwargs,
        ordered=ordered,
        partitioned=partitioned,
        vmap_method=vmap_method,
    )


def jax_debug_callback(
    callback: Callable[..., None] | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
) -> Callable[..., None] | None:
    """``callback`` with ``jax.debug.callback``'s exact signature and error messages.

    This is what stands in for ``jax.debug.callback`` while the extension is loaded.
    """
    return _callback_or_stage(
        "jax.debug.callback",
        "debug_callback",
        callback,
        args,
        kwargs,
        ordered=ordered,
        partitioned=partitioned,
        vmap_method="sequential",
    )


def _callback_or_stage(
    name: str,
    two_call_name: str,
    callback: Callable[..., None] | None,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    ordered: bool,
    partitioned: bool,
    vmap_method: str,
) -> Callable[..., None] | None:
    """Stage the call now when ``callback`` is given, else return the two-call form's second half."""
    check_vmap_method(vmap_method)

    def stage(fn: Callable[..., None], *c_args: Any, **c_kwargs: Any) -> None:
        if not callable(fn):
            raise TypeError(
                f"first argument to {name} must be callable, but got an object of type {type(fn)}"
            )
        if jx.in_pallas_kernel():
            _JAX_CALLBACK(fn, *c_args, ordered=ordered, partitioned=partitioned, **c_kwargs)
            return
        split = split_arguments(c_args, c_kwargs)
        bind(
            split.dynamic,
            HostCall(_callback_host_fn(fn, split), "callback", _shown(fn)),
            ordered=ordered,
            partitioned=partitioned,
            vmap_method=vmap_method,
        )

    return stage_or_defer(two_call_name, stage, callback, args, kwargs)

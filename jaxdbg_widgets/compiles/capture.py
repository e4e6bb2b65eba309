"""From a trace in progress to plain values: the function, the user's call site, the signature.

Runs only when JAX traces (a cache miss), never on a cache hit, and keeps no user array.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from types import FrameType
from typing import Any

import jax
import numpy as np

from jaxdbg_widgets.compiles.signature import (
    UNKNOWN_SITE,
    FunctionId,
    Leaf,
    Signature,
    Site,
    Static,
    argument_names,
    function_id,
    short,
    static_of,
)
from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import is_internal

_JAX_DIR = os.path.dirname(os.path.abspath(jax.__file__)) + os.sep


def place(filename: str, lineno: int) -> Site:
    """A site labelled ``In[3]:2`` for a notebook cell, ``train.py:12`` for a file."""
    from jaxdbg_widgets._kernel.cell_files import cell_line, cell_name

    cell = cell_name(filename)
    shown = cell_line(filename, lineno)
    label = f"{cell}:{shown}" if cell else f"{os.path.basename(filename)}:{lineno}"
    return Site(filename, lineno, label)


def is_jax_file(filename: str) -> bool:
    """Whether ``filename`` is part of JAX itself (its eager ops and jnp functions)."""
    return os.path.abspath(filename).startswith(_JAX_DIR)


def call_site(frame: FrameType | None) -> Site:
    """The innermost user frame at or above ``frame``: the line that called into JAX."""
    while frame is not None:
        if not is_internal(frame):
            return place(frame.f_code.co_filename, frame.f_lineno)
        frame = frame.f_back
    return UNKNOWN_SITE


def _sharding(value: Any) -> str | None:
    """A short text of an array's sharding (spec and mesh, or the device) and memory kind."""
    sharding = getattr(value, "sharding", None) if isinstance(value, jax.Array) else None
    if sharding is None:
        return None
    spec, mesh = getattr(sharding, "spec", None), getattr(sharding, "mesh", None)
    if spec is not None and mesh is not None:
        text = f"{spec} over {dict(getattr(mesh, 'shape', {}))}"
    elif len(getattr(sharding, "device_set", ())) == 1:
        text = str(next(iter(sharding.device_set)))
    else:
        text = short(sharding)
    kind = getattr(sharding, "memory_kind", None)
    return text if kind in (None, "device") else f"{text} in {kind}"


def leaf(path: str, value: Any) -> Leaf:
    """One argument leaf as JAX types it."""
    if value is None:
        return Leaf(path, "None", none=True)
    aval = jax.typeof(value)
    try:
        text = aval.str_short(short_dtypes=True)
    except Exception:
        text = f"{aval.dtype}[{','.join(map(str, aval.shape))}]"
    return Leaf(path, text, bool(getattr(aval, "weak_type", False)), _sharding(value))


def _leaves(prefix: str, value: Any) -> list[Leaf]:
    """Every leaf under ``value`` (``None`` kept as a leaf), named ``prefix`` plus its key path."""
    flat, _ = jax.tree_util.tree_flatten_with_path(value, is_leaf=lambda v: v is None)
    return [leaf(prefix + jax.tree_util.keystr(path), x) for path, x in flat]


def arguments(
    function: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    static_argnums: tuple[int, ...],
    static_argnames: tuple[str, ...],
) -> tuple[tuple[Leaf, ...], tuple[Static, ...]]:
    """Every dynamic leaf and every static argument, named by argument path."""
    names = argument_names(function, args, kwargs)
    leaves: list[Leaf] = []
    statics: list[Static] = []
    static = {i % len(args) for i in static_argnums if -len(args) <= i < len(args)}
    for i, (name, value) in enumerate(zip(names, args, strict=True)):
        if i in static or name in static_argnames:
            statics.append(static_of(name, value))
        else:
            leaves.extend(_leaves(name, value))
    for name, value in kwargs.items():
        if name in static_argnames:
            statics.append(static_of(name, value))
        else:
            leaves.extend(_leaves(name, value))
    return tuple(leaves), tuple(statics)


_contexts: dict[tuple[tuple[str, str, int], ...], tuple[tuple[str, str, int], ...]] = {}
"""Each distinct context once: a kernel's thousands of programs mostly share one."""
CONTEXTS_KEPT = 256


def context() -> tuple[tuple[str, str, int], ...]:
    """JAX's tracing context as ``(name, text, hash)``, shared with every equal one."""
    found = []
    for name, value in internals.trace_context():
        try:
            hashed = hash(value)
        except TypeError:
            hashed = hash(short(value))
        found.append((name, short(value), hashed))
    key = tuple(found)
    if len(_contexts) >= CONTEXTS_KEPT and key not in _contexts:
        _contexts.clear()
    return _contexts.setdefault(key, key)


@dataclass(frozen=True)
class WrapperCall:
    """The user's call of a library's jit (``eqx.filter_jit``, ``nnx.jit``), which traces a
    function of its own with arguments of its own making."""

    wrapper: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def wrapper_call(frame: FrameType | None) -> WrapperCall | None:
    """The outermost library call between JAX and the user's line that is a wrapper's
    ``__call__(self, *args, **kwargs)``, where the wrapper names what it wraps
    (``__wrapped__``, as ``functools.update_wrapper`` leaves it); ``None`` when JAX was
    called from the user's code."""
    found = None
    while frame is not None and is_internal(frame):
        module = frame.f_globals.get("__name__") or ""
        if frame.f_code.co_name == "__call__" and module.partition(".")[0] not in _OWN:
            local = frame.f_locals
            wrapper, args, kwargs = local.get("self"), local.get("args"), local.get("kwargs")
            if hasattr(wrapper, "__wrapped__") and type(args) is tuple and type(kwargs) is dict:
                found = WrapperCall(wrapper, args, dict(kwargs))
        frame = frame.f_back
    return found


_OWN = frozenset({"jax", "jaxlib", "jaxdbg_widgets"})
_ARRAYS = (jax.Array, np.ndarray, np.generic)
_NUMBERS = (bool, int, float, complex)


def _holds_numbers_static(wrapper: Any) -> bool:
    """Whether the library's jit takes Python numbers as static, as ``eqx.filter_jit`` does
    (``jax.jit`` and ``nnx.jit`` trace them)."""
    return type(wrapper).__module__.partition(".")[0] == "equinox"


def _wrapper_arguments(call: WrapperCall) -> tuple[tuple[Leaf, ...], tuple[Static, ...]]:
    """The user's arguments to a library's jit, named by their paths: arrays are leaves and
    everything else is static, as ``eqx.filter_jit`` and ``nnx.jit`` trace them; Python
    numbers are leaves (weakly typed) except under equinox, which holds them static."""
    names = argument_names(call.wrapper, call.args, call.kwargs)
    leaves: list[Leaf] = []
    statics: list[Static] = []
    traced = _ARRAYS if _holds_numbers_static(call.wrapper) else _ARRAYS + _NUMBERS
    named = [*zip(names, call.args, strict=True), *call.kwargs.items()]
    for name, value in named:
        flat, _ = jax.tree_util.tree_flatten_with_path(value)
        for path, item in flat:
            full = name + jax.tree_util.keystr(path)
            if isinstance(item, traced):
                leaves.append(leaf(full, item))
            else:
                statics.append(static_of(full, item))
    return tuple(leaves), tuple(statics)


def function_of(facts: internals.TraceFacts, name: str) -> FunctionId:
    """The traced function's identity (``name`` is JAX's, used for JAX's own functions); the
    user's function for a library's jit."""
    call = wrapper_call(facts.frame)
    function = call.wrapper if call is not None else facts.function
    return function_id(function, name, place, is_jax_file)


def signature(facts: internals.TraceFacts, function: FunctionId) -> Signature:
    """The trace's full signature, in the user's arguments for a library's jit."""
    call = wrapper_call(facts.frame)
    if call is not None:
        leaves, statics = _wrapper_arguments(call)
    else:
        leaves, statics = arguments(
            facts.function, facts.args, facts.kwargs, facts.static_argnums, facts.static_argnames
        )
    return Signature(function, leaves, statics, context())

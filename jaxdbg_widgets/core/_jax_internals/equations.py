"""A jaxpr read and run equation by equation (``find_nonfinite``): binding, names and
frames, ``vmap`` batch axes, dead code, ``shard_map`` parameters and varying axes, the
layout of ``scan``, and a backward pass traced with its rules' own lines.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import threading
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import jax
import numpy as np

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core._jax_internals._probe import (
    _ad,
    _batching,
    _check,
    _core,
    _keywords,
    _module,
    _needs,
    _pe,
)
from jaxdbg_widgets.core._jax_internals.host_calls import (
    _shard_map_function,
)

# --- equation-by-equation evaluation of a jaxpr (find_nonfinite) ---------------------------

_source_info_util = _module("source_info_util")


def _probe_equation_binding() -> None:
    caps.require_attributes(_needs(_core, "Primitive").Primitive, ["get_bind_params", "bind"])
    _needs(_core, "Literal", "DropVar", "JaxprEqn")
    slots = getattr(_needs(_source_info_util, "SourceInfo").SourceInfo, "__slots__", ())
    if not {"traceback", "name_stack"} <= set(slots):
        raise TypeError("SourceInfo has no traceback and name_stack")


JAXPR_EVAL = _check(
    "jaxpr-equation-binding",
    "find_nonfinite evaluates a program equation by equation",
    _probe_equation_binding,
)


def bind_equation(eqn: Any, values: list[Any]) -> list[Any]:
    """Apply one jaxpr equation to ``values`` (concrete or traced); its outputs as a list."""
    bind_params = eqn.primitive.get_bind_params(eqn.params)
    subfuns, params = bind_params if isinstance(bind_params, tuple) else ((), bind_params)
    context = getattr(getattr(eqn, "ctx", None), "manager", None)
    with context if context is not None else contextlib.nullcontext():
        out = eqn.primitive.bind(*subfuns, *values, **params)
    return list(out) if eqn.primitive.multiple_results else [out]


def is_literal(atom: Any) -> bool:
    """Whether a jaxpr atom is a literal constant (else a variable)."""
    return isinstance(atom, _core.Literal)


def is_dropped(var: Any) -> bool:
    """Whether an equation output is discarded (``_`` in a printed jaxpr)."""
    return isinstance(var, _core.DropVar)


def equation_frames(eqn: Any) -> list[tuple[str, int, str]]:
    """``(filename, line, function)`` of every frame an equation was traced at, innermost first."""
    traceback = getattr(eqn.source_info, "traceback", None)
    frames = getattr(traceback, "frames", None) or ()
    return [(f.file_name, f.line_num, f.function_name) for f in frames]


def name_stack(eqn: Any) -> str:
    """The transformation and scope names an equation was traced under, e.g. ``transpose(jvp())``."""
    return str(eqn.source_info.name_stack)


def _probe_batch_axes() -> None:
    _needs(_batching, "BatchTrace", "BatchTracer")
    step = _batching.BatchTrace.process_primitive
    if list(inspect.signature(step).parameters) != ["self", "p", "tracers", "params"]:
        raise TypeError("BatchTrace.process_primitive no longer takes (p, tracers, params)")
    caps.require_attributes(_batching.BatchTracer, ["val", "batch_dim"])
    if "val" not in getattr(_needs(_pe, "DynamicJaxprTracer").DynamicJaxprTracer, "__slots__", ()):
        raise TypeError("DynamicJaxprTracer keeps no val (its jaxpr variable)")


VMAP_BATCH_AXES = _check(
    "vmap-batch-axes",
    "find_nonfinite naming the vmap batch elements of a bad value along its own batch axis "
    "(else the batch elements are not known)",
    _probe_batch_axes,
)

BATCH_AXES_KEPT = 1_000_000
"""Variables whose batch axis is kept at most; past it the oldest notes are dropped."""

_batch_axes: dict[Any, Any] = {}
_batch_recorders = 0
_batch_lock = threading.Lock()


def _note_batch_axes(tracers: Any) -> None:
    """Note the batch axis of each value ``vmap`` hands a traced program (outermost vmap)."""
    for tracer in tracers:
        inner = getattr(tracer, "val", None)
        if isinstance(tracer, _batching.BatchTracer) and isinstance(inner, _pe.DynamicJaxprTracer):
            _batch_axes[inner.val] = tracer.batch_dim
    while len(_batch_axes) > BATCH_AXES_KEPT:
        del _batch_axes[next(iter(_batch_axes))]


def _noting_process_primitive(previous: Callable[..., Any]) -> Callable[..., Any]:
    def process_primitive(self: Any, p: Any, tracers: Any, params: Any) -> Any:
        out = previous(self, p, tracers, params)
        _note_batch_axes([*tracers, *(out if p.multiple_results else [out])])
        return out

    process_primitive.previous = previous
    return process_primitive


@contextmanager
def recording_batch_axes() -> Any:
    """While inside, note for each jaxpr variable ``vmap`` traces the axis its batch runs along
    (``None`` where it does not vary along the batch). Nests; the notes outlive it."""
    global _batch_recorders
    if not VMAP_BATCH_AXES:
        yield
        return
    with _batch_lock:
        if _batch_recorders == 0:
            step = _batching.BatchTrace.process_primitive
            _batching.BatchTrace.process_primitive = _noting_process_primitive(step)
        _batch_recorders += 1
    try:
        yield
    finally:
        with _batch_lock:
            _batch_recorders -= 1
            if _batch_recorders == 0:
                step = _batching.BatchTrace.process_primitive
                _batching.BatchTrace.process_primitive = step.previous


UNKNOWN_AXIS = object()
"""The batch axis of a variable no recording saw traced."""


def batch_axis(var: Any) -> Any:
    """The batch axis noted for ``var``: an ``int``, ``None`` (not batched) or ``UNKNOWN_AXIS``."""
    axis = _batch_axes.get(var, UNKNOWN_AXIS)
    if axis is None or axis is UNKNOWN_AXIS or isinstance(axis, int):
        return axis
    return UNKNOWN_AXIS  # a ragged or other axis this package does not read


def _probe_dead_code() -> None:
    caps.require_parameters(_needs(_pe, "dce_jaxpr").dce_jaxpr, ["used_outputs", "instantiate"])


JAXPR_DCE = _check(
    "jaxpr-dce",
    "find_nonfinite leaving out the equations whose values reach no output, loop bodies and "
    "branches included (else they are searched too, as values the program computes)",
    _probe_dead_code,
)


def without_dead_code(jaxpr: Any) -> Any:
    """``jaxpr`` without the equations whose values reach none of its outputs (JAX's own
    dead-code elimination, into sub-programs); its inputs all kept. As it is where not read."""
    if not JAXPR_DCE:
        return jaxpr
    return _pe.dce_jaxpr(jaxpr, [True] * len(jaxpr.outvars), instantiate=True)[0]


_SHARD_MAP_AXES = ("newly_manual_axes", "manual_axes", "axis_names")


def shard_map_params(eqn: Any) -> tuple[Any, tuple[Any, ...], frozenset[str]]:
    """A ``shard_map`` equation's mesh, input specs and manual axes, whatever this JAX calls them."""
    params = eqn.params
    specs = params.get("in_specs", params.get("in_names"))
    axes = next((params[name] for name in _SHARD_MAP_AXES if name in params), None)
    if axes is None:
        axes = params["mesh"].axis_names
    return params["mesh"], tuple(specs), frozenset(axes)


def shard_map_unchecked(fn: Callable[..., Any], mesh: Any, in_specs: Any, out_specs: Any) -> Any:
    """``fn`` under ``shard_map`` with its replication checks off (they vary by release)."""
    function = _shard_map_function()
    keywords = _keywords(function)
    check = {"check_vma": False} if "check_vma" in keywords else {"check_rep": False}
    return function(fn, mesh=mesh, in_specs=in_specs, out_specs=out_specs, **check)


_parallel = _module("lax.parallel")


def _aval_varying(aval: Any) -> frozenset[str] | None:
    """The manual axes ``aval`` varies over (``mat.varying`` on newer JAX, ``vma`` before)."""
    mat = getattr(aval, "mat", None)
    if mat is not None and hasattr(mat, "varying"):
        return frozenset(mat.varying)
    vma = getattr(aval, "vma", None)
    return frozenset(vma) if vma is not None else None


def _gather_invariant() -> Callable[[Any, tuple[str, ...]], Any]:
    """Each device's value gathered along ``axes``, typed invariant along them: JAX 0.12's public
    ``lax.all_gather(..., to="invarying")``, or the private ``all_gather_invariant`` before it."""
    if "to" in _keywords(jax.lax.all_gather):
        return lambda value, axes: jax.lax.all_gather(value, axes, to="invarying")
    return _needs(_parallel, "all_gather_invariant").all_gather_invariant


def _probe_shard_map_vma() -> None:
    if "check_vma" not in _keywords(_shard_map_function()):
        raise TypeError("shard_map takes no check_vma")
    _gather_invariant()
    if _aval_varying(_needs(_core, "ShapedArray").ShapedArray((), np.float32)) is None:
        raise TypeError("an aval says neither mat.varying nor vma")


SHARD_MAP_VMA = _check(
    "shard-map-vma",
    "find_nonfinite steps a shard_map body checked for varying axes (check_vma, the default) "
    "with the body's own types (else its psum/pmean fail and the shard_map is one equation)",
    _probe_shard_map_vma,
)


def checks_vma(eqn: Any) -> bool:
    """Whether a ``shard_map`` equation's body was typed with varying manual axes."""
    return bool(eqn.params.get("check_vma", False))


def varying_axes(var: Any) -> frozenset[str]:
    """The manual axes a ``shard_map`` body's variable varies over, as the body's types say."""
    return _aval_varying(getattr(var, "aval", None)) or frozenset()


def invariant_along(value: Any, axes: tuple[str, ...]) -> Any:
    """``value``, varying over ``axes`` but equal along them, typed invariant along them (the
    first device's copy, gathered); typed PRNG keys go through their data."""
    if not axes:
        return value
    if jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key):
        data = invariant_along(jax.random.key_data(value), axes)
        return jax.random.wrap_key_data(data, impl=jax.random.key_impl(value))
    return _gather_invariant()(value, axes)[0]


def shard_map_checked(fn: Callable[..., Any], mesh: Any, in_specs: Any, out_specs: Any) -> Any:
    """``fn`` under ``shard_map`` with varying manual axes checked, as a body typed so runs."""
    return _shard_map_function()(
        fn, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=True
    )


_loops = _module("lax.control_flow.loops")
_flattree = _module("flattree")

_SCAN_COMMON = frozenset({"jaxpr", "length", "reverse"})
_SCAN_COUNTS = frozenset({"num_consts", "num_carry"})
_SCAN_TREES = frozenset({"ft_in", "ft_out"})


def _scan_form() -> str:
    """How this JAX's ``scan`` says which inputs are constants, carry and scanned slices.

    ``"counts"``: ``num_consts``/``num_carry`` (JAX 0.7-0.11); ``"trees"``: the flat trees
    ``ft_in`` = (consts, carry, xs) and ``ft_out`` = (carry, ys) of JAX 0.12.
    """
    keywords = _keywords(_needs(_loops, "scan_p", "_scan_impl")._scan_impl)
    if not keywords >= _SCAN_COMMON:
        raise TypeError(f"scan takes no {', '.join(sorted(_SCAN_COMMON - keywords))}")
    if keywords >= _SCAN_COUNTS:
        return "counts"
    if keywords >= _SCAN_TREES:
        caps.require_attributes(_needs(_flattree, "FlatTree").FlatTree, ["update", "unpack"])
        return "trees"
    raise TypeError("scan takes neither num_consts/num_carry nor ft_in/ft_out")


SCAN_LAYOUT = _check(
    "scan-layout",
    "find_nonfinite opens a scan iteration by iteration (else reports it as one equation)",
    _scan_form,
)
_SCAN_FORM = _scan_form() if SCAN_LAYOUT else None


@dataclasses.dataclass(frozen=True)
class ScanLayout:
    """A ``scan`` equation read for running its body one iteration at a time.

    ``consts``, ``carry`` and ``xs`` are positions among the equation's inputs; the body takes
    ``(*consts, *carry, *one slice of each xs)`` in that order, as JAX's own ``scan`` runs it,
    and ``carry_out`` are the positions of the new carry among the body's outputs.
    """

    body: Any
    length: int
    reverse: bool
    consts: tuple[int, ...]
    carry: tuple[int, ...]
    xs: tuple[int, ...]
    carry_out: tuple[int, ...]


def scan_layout(eqn: Any) -> ScanLayout | None:
    """The layout of a ``scan`` equation; ``None`` where this JAX's form is not read."""
    params = eqn.params
    body = params["jaxpr"]
    if _SCAN_FORM == "counts":
        n_consts, n_carry = params["num_consts"], params["num_carry"]
        consts = tuple(range(n_consts))
        carry = tuple(range(n_consts, n_consts + n_carry))
        xs = tuple(range(n_consts + n_carry, len(eqn.invars)))
        carry_out = tuple(range(n_carry))
    elif _SCAN_FORM == "trees":
        consts, carry, xs = (
            tuple(group) for group in params["ft_in"].update(range(len(eqn.invars))).unpack()
        )
        carry_out = tuple(params["ft_out"].update(range(len(body.jaxpr.outvars))).unpack()[0])
    else:
        return None
    return ScanLayout(body, params["length"], params["reverse"], consts, carry, xs, carry_out)


def _probe_transpose_tracebacks() -> None:
    _needs(_source_info_util, "user_context", "current_name_stack", "SourceInfo")
    caps.require_parameters(_source_info_util.user_context, ["traceback", "name_stack"])
    context = _needs(_source_info_util, "_source_info_context")._source_info_context.context
    caps.require_attributes(context, ["traceback", "name_stack"])
    if hasattr(_ad, "_name_stack_ctx"):
        return
    _needs(_ad, "backward_pass", "source_info_util")  # JAX 0.7: the pass enters contexts itself
    if "source_info_util.user_context(" not in inspect.getsource(_ad.backward_pass):
        raise TypeError("ad.backward_pass sets no source_info_util.user_context")


class _ContextsWithoutTracebacks:
    """``source_info_util`` as JAX 0.7's backward pass reads it, with user contexts that keep
    only the name stack."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_source_info_util, name)

    @staticmethod
    def user_context(traceback: Any, *, name_stack: Any = None) -> Any:
        return _source_info_util.user_context(None, name_stack=name_stack)


RULE_TRACEBACKS = _check(
    "transpose-tracebacks",
    "find_nonfinite names the line inside a custom_vjp backward rule (else the call line)",
    _probe_transpose_tracebacks,
)


@contextmanager
def own_transpose_tracebacks() -> Any:
    """While tracing, backward-pass equations keep the traceback where they are built.

    JAX gives each transposed equation the forward equation's traceback, which hides the
    frames of a ``custom_vjp`` backward rule; inside this block they keep their own. The
    enclosing traceback (an outer backward pass's equation) is set aside too, since a context
    without a traceback of its own inherits it.
    """
    if not RULE_TRACEBACKS:
        yield
        return

    def name_stack_only(src_info: Any) -> Any:
        stack = _source_info_util.current_name_stack() + src_info.name_stack
        return _source_info_util.user_context(None, name_stack=stack)

    if hasattr(_ad, "_name_stack_ctx"):
        name, replacement = "_name_stack_ctx", name_stack_only
    else:
        name, replacement = "source_info_util", _ContextsWithoutTracebacks()
    original = getattr(_ad, name)
    context = _source_info_util._source_info_context
    outer = context.context
    setattr(_ad, name, replacement)
    context.context = _source_info_util.SourceInfo(None, outer.name_stack)
    try:
        yield
    finally:
        context.context = outer
        setattr(_ad, name, original)

"""JAX's NaN/Inf checks replaced by the search (``%jaxdbg nans on``): the re-run after a
jitted call's check, the check of a jit run by an outer transformation's rule, and the
per-step check of an unjitted ``shard_map``.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import threading
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import jax

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core._jax_internals._probe import (
    _check,
    _linear_util,
    _module,
    _needs,
    _shard_map,
)
from jaxdbg_widgets.core._jax_internals.equations import (
    RULE_TRACEBACKS,
    _source_info_util,
    own_transpose_tracebacks,
)

# --- the re-run after a jitted call's NaN/Inf check (%jaxdbg nans on) ----------------------

_api_util = _module("api_util")
_NAN_RECHECK = "maybe_recursive_nan_check"


def _probe_nan_recheck() -> None:
    _needs(_api_util, _NAN_RECHECK, "InternalFloatingPointError")
    parameters = list(inspect.signature(getattr(_api_util, _NAN_RECHECK)).parameters)
    if parameters[:4] != ["e", "fun", "args", "kwargs"]:
        raise TypeError(f"api_util.{_NAN_RECHECK} takes ({', '.join(parameters)})")
    for module in ("pjit", "api"):
        if _NAN_RECHECK not in inspect.getsource(_needs(_module(module))):
            raise TypeError(f"jax._src.{module} no longer calls api_util.{_NAN_RECHECK}")


NAN_RECHECK = _check(
    "nan-recheck",
    "%jaxdbg nans on searching a jitted call's NaN origin (else JAX's de-optimized re-run)",
    _probe_nan_recheck,
)


def replace_nan_recheck(
    recheck: Callable[[Exception, Callable[..., Any], tuple[Any, ...], dict[str, Any]], Any],
) -> Callable[[], None]:
    """Have JAX call ``recheck(error, fun, args, kwargs)`` instead of re-running ``fun`` op by
    op when a jitted call's output fails its NaN/Inf check; the undo puts JAX's back.

    ``recheck`` must raise. JAX's own re-run stays reachable through :func:`jax_nan_recheck`.
    """
    if not NAN_RECHECK:
        raise RuntimeError("this JAX's NaN re-run cannot be replaced (see %jaxdbg status)")
    previous = getattr(_api_util, _NAN_RECHECK)
    setattr(_api_util, _NAN_RECHECK, _routing(recheck))

    def undo() -> None:
        setattr(_api_util, _NAN_RECHECK, previous)

    return undo


def jax_nan_recheck(
    error: Exception, fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """JAX's own de-optimized re-run (and its error), whatever is installed in its place."""
    return JAX_NAN_RECHECK(error, fun, args, kwargs)


def nan_recheck_installed() -> Any:
    """What JAX calls now after a failed check on a jitted call's output."""
    hook = getattr(_api_util, _NAN_RECHECK) if NAN_RECHECK else None
    return getattr(hook, "recheck", hook)


def nan_check_error(primitive: str, kind: str) -> Exception:
    """The error JAX's check raises before its re-run (``kind`` is ``nan`` or ``inf``)."""
    return _api_util.InternalFloatingPointError(primitive, kind)


JAX_NAN_RECHECK = getattr(_api_util, _NAN_RECHECK) if NAN_RECHECK else None
"""JAX's own re-run, as it was when this module loaded."""


def argument_names(jaxpr: Any) -> tuple[str | None, ...] | None:
    """The user's names of a traced program's arguments (``x``, ``params['w']``), where kept."""
    names = getattr(getattr(jaxpr, "debug_info", None), "arg_names", None)
    return tuple(names) if names is not None and len(names) == len(jaxpr.invars) else None


# --- the check of a jit run by an outer transformation's rule (%jaxdbg nans on) -------------

_pjit = _module("pjit")
_RULES_BINDING_JIT = ("_pjit_linearize", "_pjit_jvp", "_pjit_batcher")
_TRANSPOSE_RULES = ("_pjit_transpose_fancy", "_pjit_transpose")
"""Newer JAX names jit's transpose rule by the first, JAX 0.7 by the second."""


_IMPL_RERUN = "partial(core.eval_jaxpr, jaxpr"
"""How JAX 0.12.1 and later re-run a failed check inside jit's impl: through the same hook
as a top-level call's, on the impl's own program."""


@dataclasses.dataclass(frozen=True)
class _TransformedCall:
    """A transformed jit's impl running on this thread, and how to answer its failed check."""

    jaxpr: Any
    answer: Callable[[Exception], None]


_transformed_call = threading.local()


def _routing(recheck: Callable[..., Any]) -> Callable[..., Any]:
    """The re-run hook: a transformed jit's failed check, where its impl re-runs through the
    hook, goes to that jit's answer (then JAX's re-run); every other goes to ``recheck``."""

    def hook(error: Exception, fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        call = getattr(_transformed_call, "current", None)
        program = getattr(fun, "args", None) or (None,)
        if call is not None and program[0] is call.jaxpr:
            call.answer(error)
            return JAX_NAN_RECHECK(error, fun, args, kwargs)
        return recheck(error, fun, args, kwargs)

    hook.recheck = recheck
    return hook


def _probe_transformed_nan_check() -> None:
    _needs(_pjit, "jit_p", "_pjit_call_impl", *_RULES_BINDING_JIT)
    if _pjit.jit_p.impl is not _pjit._pjit_call_impl:
        raise TypeError("pjit.jit_p's impl is not pjit._pjit_call_impl")
    caps.require_parameters(_pjit._pjit_call_impl, ["jaxpr", "name"])
    _needs(_api_util, "InternalFloatingPointError")
    _needs(_source_info_util, "current_name_stack")
    transpose = next((rule for rule in _TRANSPOSE_RULES if hasattr(_pjit, rule)), None)
    if transpose is None:
        raise TypeError(f"jax._src.pjit has none of {', '.join(_TRANSPOSE_RULES)}")
    for rule in (*_RULES_BINDING_JIT, transpose):
        if "jit_p.bind(" not in inspect.getsource(getattr(_pjit, rule)):
            raise TypeError(f"jax._src.pjit.{rule} no longer binds jit_p on its program")
    impl = inspect.getsource(_pjit._pjit_call_impl)
    if _NAN_RECHECK in impl and not (NAN_RECHECK and _IMPL_RERUN in impl):
        raise TypeError(f"pjit._pjit_call_impl re-runs a failed check other than by {_IMPL_RERUN}")


NAN_RECHECK_TRANSFORMED = _check(
    "nan-recheck-transformed",
    "%jaxdbg nans on searching the NaN origin of a jit under an outer grad or vmap "
    "(else JAX's de-optimized re-run)",
    _probe_transformed_nan_check,
)

_TRANSPOSE_TRACES = (
    ("_pjit_transpose_fancy", "_transpose_jaxpr_fancy", "(jaxpr, "),
    ("_pjit_transpose", "_pjit_transpose_trace", "(body, "),
)
"""Per form of jit's transpose rule, the function it traces its backward program with and how
it calls it: newer JAX passes the forward program, JAX 0.7 a wrapped function (whose output
store is filled again by a second trace)."""


def _transpose_trace() -> tuple[str, bool]:
    """The name of this JAX's transpose trace, and whether it takes JAX 0.7's wrapped function."""
    for rule, trace, call in _TRANSPOSE_TRACES:
        if hasattr(_pjit, rule) and hasattr(_pjit, trace):
            if f"{trace}{call}" not in inspect.getsource(getattr(_pjit, rule)):
                raise TypeError(f"jax._src.pjit.{rule} no longer calls {trace}{call}...)")
            return trace, rule == "_pjit_transpose"
    raise TypeError("jax._src.pjit has no transpose trace this package reads")


def _probe_transposed_rule_lines() -> None:
    if not (NAN_RECHECK_TRANSFORMED and RULE_TRACEBACKS):
        raise TypeError("needs nan-recheck-transformed and transpose-tracebacks")
    _, wrapped = _transpose_trace()
    if wrapped:
        _needs(_linear_util, "Store", "WrappedFun")
        caps.require_attributes(_linear_util.Store, ["reset"])
        if "stores" not in _linear_util.WrappedFun.__slots__:
            raise TypeError("linear_util.WrappedFun keeps no stores")


TRANSPOSED_RULE_LINES = _check(
    "transposed-rule-lines",
    "%jaxdbg nans on naming the line inside a custom_vjp backward rule under an outer "
    "grad(jit(...)) (else the line that called the function)",
    _probe_transposed_rule_lines,
)

_transposing = threading.local()
"""Per thread, the backward program jit's transpose rule traced last and how to trace it again."""


def _record_transpositions() -> Callable[[], None]:
    """Note each backward program jit's transpose rule traces, until the returned undo runs."""
    name, wrapped = _transpose_trace()
    traced = getattr(_pjit, name)

    def again(args: tuple[Any, ...]) -> Any:
        jax.clear_caches()  # cached transpositions, nested ones too, have the forward tracebacks
        try:
            with own_transpose_tracebacks():
                if wrapped:
                    for store in args[0].stores:
                        if store is not None:
                            store.reset()  # the same output tree is stored again
                result = traced(*args)
        finally:
            jax.clear_caches()  # and later traces must not reuse these
        return result if wrapped else result[0]

    def recording(*args: Any) -> Any:
        result = traced(*args)
        _transposing.last = (result if wrapped else result[0], functools.partial(again, args))
        return result

    setattr(_pjit, name, recording)

    def undo() -> None:
        setattr(_pjit, name, traced)
        _transposing.__dict__.clear()

    return undo


def _retrace_of(jaxpr: Any) -> Callable[[], Any] | None:
    """How to trace ``jaxpr`` again with own tracebacks, when it is the last backward program
    noted on this thread (which is then forgotten); ``None`` for any other program."""
    last = getattr(_transposing, "last", None)
    if last is None or last[0] is not jaxpr:
        return None
    del _transposing.last
    return last[1]


TransformedSearch = Callable[
    [Exception, Any, tuple[Any, ...], str, str, "Callable[[], Any] | None"], None
]
"""``search(error, closed_jaxpr, args, name, name_stack, retrace)``: raises to answer a failed
check. ``retrace()``, where given, traces a backward program again with each equation's own
traceback (a ``custom_vjp`` backward rule's lines), equation for equation."""


def replace_transformed_nan_check(search: TransformedSearch) -> Callable[[], None]:
    """Have a jit that an outer transformation's rule runs on concrete values (the forward,
    linearized, batched or transposed program of ``grad(jit(f))`` or ``vmap(jit(f))``) call
    ``search(error, jaxpr, args, name, name_stack)`` when its output fails the NaN/Inf check.

    ``name_stack`` is the transformation that bound the program (``transpose(jvp())``,
    ``vmap()``); ``retrace`` is given for a backward program where ``transposed-rule-lines``
    holds. When ``search`` returns, JAX's own handling goes on with the original error; the
    undo puts JAX's impl back. From JAX 0.12.1 the impl re-runs its own failed check through
    the re-run hook, which then sends that call to ``search`` too.
    """
    if not NAN_RECHECK_TRANSFORMED:
        raise RuntimeError("this JAX's check of a transformed jit cannot be answered (see status)")
    previous = _pjit.jit_p.impl

    def impl(*args: Any, jaxpr: Any, name: str, **params: Any) -> Any:
        retrace = _retrace_of(jaxpr)

        def answer(error: Exception) -> None:
            stack = str(_source_info_util.current_name_stack())
            search(error, jaxpr, args, name, stack, retrace)

        outer = getattr(_transformed_call, "current", None)
        _transformed_call.current = _TransformedCall(jaxpr, answer)
        try:
            return previous(*args, jaxpr=jaxpr, name=name, **params)
        except _api_util.InternalFloatingPointError as error:  # JAX before 0.12.1
            answer(error)
            raise
        finally:
            _transformed_call.current = outer

    impl.search = search
    with ExitStack() as undo:
        if TRANSPOSED_RULE_LINES:
            undo.callback(_record_transpositions())
        if NAN_RECHECK:
            hook = getattr(_api_util, _NAN_RECHECK)
            setattr(_api_util, _NAN_RECHECK, _routing(getattr(hook, "recheck", hook)))
            undo.callback(setattr, _api_util, _NAN_RECHECK, hook)
        _pjit.jit_p.impl = impl
        undo.callback(setattr, _pjit.jit_p, "impl", previous)
        return undo.pop_all().close


def transformed_nan_check_installed() -> TransformedSearch | None:
    """What a transformed jit's failed check calls now; ``None`` for JAX's own handling."""
    return getattr(_pjit.jit_p.impl, "search", None) if NAN_RECHECK_TRANSFORMED else None


# --- the per-step check of an unjitted shard_map (%jaxdbg nans on) ---------------------------

_SHARD_MAP_CHECK = "_maybe_check_special"
_shard_map_step = threading.local()


@dataclasses.dataclass(frozen=True)
class ShardMapStep:
    """One primitive an unjitted ``shard_map`` ran: its name, parameters and global inputs."""

    primitive: str
    params: dict[str, Any]
    inputs: list[Any]


def _probe_shard_map_nan_check() -> None:
    _needs(_shard_map, _SHARD_MAP_CHECK, "ShardMapTrace", "ShardMapTracer")
    if list(inspect.signature(getattr(_shard_map, _SHARD_MAP_CHECK)).parameters) != ["outs"]:
        raise TypeError(f"shard_map.{_SHARD_MAP_CHECK} no longer takes (outs)")
    step = _shard_map.ShardMapTrace.process_primitive
    if list(inspect.signature(step).parameters) != ["self", "prim", "tracers", "params"]:
        raise TypeError("ShardMapTrace.process_primitive no longer takes (prim, tracers, params)")
    if f"{_SHARD_MAP_CHECK}(out_vals)" not in inspect.getsource(step):
        raise TypeError(f"ShardMapTrace.process_primitive no longer calls {_SHARD_MAP_CHECK}")


SHARD_MAP_NAN_CHECK = _check(
    "nan-check-shard-map",
    "%jaxdbg nans on naming the primitive, devices and elements of a NaN made in an unjitted "
    "shard_map (else JAX's 'encountered in sharded computation')",
    _probe_shard_map_nan_check,
)


def _global_value(operand: Any) -> Any:
    return operand.val if isinstance(operand, _shard_map.ShardMapTracer) else operand


def replace_shard_map_nan_check(
    answer: Callable[[ShardMapStep, Any], None],
) -> Callable[[], None]:
    """Have an unjitted ``shard_map``'s failed per-step NaN/Inf check call
    ``answer(step, outs)`` with the step and its global outputs; when ``answer`` returns,
    JAX's error follows. The undo puts JAX's check back."""
    if not SHARD_MAP_NAN_CHECK:
        raise RuntimeError("this JAX's shard_map check cannot be answered (see %jaxdbg status)")
    previous_check = getattr(_shard_map, _SHARD_MAP_CHECK)
    previous_step = _shard_map.ShardMapTrace.process_primitive

    def process_primitive(self: Any, prim: Any, tracers: Any, params: Any) -> Any:
        outer = getattr(_shard_map_step, "current", None)
        _shard_map_step.current = (prim, params, tracers)
        try:
            return previous_step(self, prim, tracers, params)
        finally:
            _shard_map_step.current = outer

    def check(outs: Any) -> None:
        try:
            previous_check(outs)
        except FloatingPointError:
            prim, params, tracers = _shard_map_step.current
            answer(ShardMapStep(prim.name, dict(params), list(map(_global_value, tracers))), outs)
            raise

    check.answer = answer
    setattr(_shard_map, _SHARD_MAP_CHECK, check)
    _shard_map.ShardMapTrace.process_primitive = process_primitive

    def undo() -> None:
        setattr(_shard_map, _SHARD_MAP_CHECK, previous_check)
        _shard_map.ShardMapTrace.process_primitive = previous_step

    return undo


def shard_map_nan_check_installed() -> Callable[[ShardMapStep, Any], None] | None:
    """What an unjitted shard_map's failed check calls now; ``None`` for JAX's own error."""
    check = getattr(_shard_map, _SHARD_MAP_CHECK, None) if SHARD_MAP_NAN_CHECK else None
    return getattr(check, "answer", None)

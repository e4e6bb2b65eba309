"""The host-call primitive behind print, callback, log and breakpoint: its rule tables and
lowering, where a callback runs, its sharding annotations, the mesh position while tracing,
and the runtime tokens of ordered effects.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from types import SimpleNamespace
from typing import Any

import jax
import numpy as np

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core import _jax_standins as _standins
from jaxdbg_widgets.core._jax_internals._probe import (
    _ad,
    _batching,
    _callback,
    _check,
    _config,
    _core,
    _debugging,
    _dispatch,
    _keywords,
    _mesh,
    _mlir,
    _needs,
    _pe,
    _shard_map,
    _sharding_impls,
    _state_discharge,
    _xc,
)

# --- the host-call primitive: its type, effects, rule tables and lowering -----------------

_PRIMITIVE = "jaxdbg print, callback, log and breakpoint as one primitive (else via jax.debug)"


def _probe_rule_tables() -> None:
    for module, table in (
        (_batching, "primitive_batchers"),
        (_ad, "primitive_jvps"),
        (_ad, "primitive_transposes"),
        (_pe, "partial_eval_jaxpr_custom_rules"),
    ):
        rules = getattr(_needs(module, table), table)
        if not hasattr(rules, "__setitem__"):
            raise TypeError(f"{module.__name__}.{table} is not a rule table")
    _needs(_state_discharge, "register_discharge_rule")
    context = getattr(_state_discharge, "DischargeContext", None)
    if context is not None and not hasattr(context, "__dataclass_fields__"):
        raise TypeError("DischargeContext is not a dataclass")
    if context is not None and not {"in_avals", "out_avals"} <= {
        f.name for f in dataclasses.fields(context)
    }:
        raise TypeError("DischargeContext has no in_avals and out_avals")


_CONTEXT_FIELDS = {"module_context", "avals_in", "avals_out", "tokens_in", "tokens_out"}


def _probe_lowering() -> None:
    caps.require_parameters(_needs(_mlir, "register_lowering").register_lowering, ["platform"])
    _needs(_mlir, "lower_fun", "TokenSet", "LoweringRuleContext")
    caps.require_parameters(_mlir.lower_fun, ["multiple_results"])
    context = _mlir.LoweringRuleContext
    fields = {f.name for f in dataclasses.fields(context)}
    if not fields >= _CONTEXT_FIELDS or not hasattr(context, "set_tokens_out"):
        raise TypeError(f"LoweringRuleContext lacks {sorted(_CONTEXT_FIELDS - fields)}")


def _probe_callback_lowering() -> None:
    emit = _needs(_callback, "emit_python_callback").emit_python_callback
    caps.require_parameters(emit, ["has_side_effect", "sharding"])
    positional = [
        p
        for p in inspect.signature(emit).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if len(positional) != 6:
        raise TypeError(f"emit_python_callback takes {len(positional)} positional arguments, not 6")


HOST_CALL = all(
    [
        _check(
            "primitive",
            _PRIMITIVE,
            lambda: _needs(_core, "Primitive", "Tracer", "shaped_abstractify"),
        ),
        _check(
            "debug-effects",
            _PRIMITIVE,
            lambda: (
                _needs(
                    _debugging,
                    "DebugEffect",
                    "OrderedDebugEffect",
                    "debug_effect",
                    "ordered_debug_effect",
                ).effects.ordered_effects.contains
            ),
        ),
        _check("transformation-rules", _PRIMITIVE, _probe_rule_tables),
        _check("lowering-rules", _PRIMITIVE, _probe_lowering),
        _check("callback-lowering", _PRIMITIVE, _probe_callback_lowering),
    ]
)
"""Whether the host-call primitive can be built; when not, host calls use ``jax.debug``."""

_effects: Any = _debugging if HOST_CALL else _standins
"""Where the effect types come from: JAX's own, or stand-ins that register nothing."""
Primitive = (_core if HOST_CALL else _standins).Primitive
DebugEffect = _effects.DebugEffect
OrderedDebugEffect = _effects.OrderedDebugEffect
debug_effect = _effects.debug_effect
ordered_debug_effect = _effects.ordered_debug_effect

if HOST_CALL:
    primitive_batchers = _batching.primitive_batchers
    primitive_jvps = _ad.primitive_jvps
    primitive_transposes = _ad.primitive_transposes
    partial_eval_custom_rules = _pe.partial_eval_jaxpr_custom_rules
    lower_fun = _mlir.lower_fun
    is_ordered = _debugging.effects.ordered_effects.contains
else:
    is_ordered = _standins.is_ordered
    primitive_batchers, primitive_jvps, primitive_transposes = {}, {}, {}
    partial_eval_custom_rules: dict[Any, Any] = {}
    lower_fun: Any = None  # nothing is lowered without the primitive


class _NoTracer:
    """Stands in for JAX's tracer type when this JAX lacks it: nothing is an instance."""


Tracer: type = getattr(_core, "Tracer", _NoTracer)


def register_discharge_rule(primitive: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``rule(in_avals, out_avals, *args, **params)`` as ``primitive``'s discharge rule.

    JAX 0.12 calls discharge rules as ``rule(ctx, *args)`` with a ``DischargeContext``; the
    rule is adapted to whichever convention this JAX uses.
    """
    if not HOST_CALL:
        return _standins.register_discharge_rule(primitive)
    register = _state_discharge.register_discharge_rule(primitive)
    if not hasattr(_state_discharge, "DischargeContext"):
        return register

    def adapt(rule: Callable[..., Any]) -> Callable[..., Any]:
        register(lambda ctx, *args, **params: rule(ctx.in_avals, ctx.out_avals, *args, **params))
        return rule

    return adapt


_LOWERING_KEYWORDS = _keywords(_mlir.register_lowering) if HOST_CALL else frozenset()
_EMIT_KEYWORDS = _keywords(_callback.emit_python_callback) if HOST_CALL else frozenset()


def register_host_lowering(primitive: Any, rule: Callable[..., Any]) -> None:
    """Register ``rule`` for CPU, GPU and TPU; on TPU uncached where this JAX allows it."""
    for platform in ("cpu", "gpu"):
        _mlir.register_lowering(primitive, rule, platform=platform)
    uncached = {"cacheable": False} if "cacheable" in _LOWERING_KEYWORDS else {}
    _mlir.register_lowering(primitive, rule, platform="tpu", **uncached)


PARTITIONED = _check(
    "partitioned-callbacks",
    "jaxdbg print(partitioned=True) on shards (else the whole array on one device)",
    lambda: caps.require_parameters(_callback.emit_python_callback, ["partitioned"]),
)


def emit_host_call(ctx, host_fn, operands, *, token, partitioned: bool, sharding):
    """Lower a Python call with JAX's own python-callback lowering; return the new token."""
    keywords: dict[str, Any] = {"has_side_effect": True, "sharding": sharding}
    if "returns_token" in _EMIT_KEYWORDS:
        keywords["returns_token"] = True
    if PARTITIONED:
        keywords["partitioned"] = partitioned
    _, new_token, _ = _callback.emit_python_callback(
        ctx, host_fn, token, list(operands), ctx.avals_in, ctx.avals_out, **keywords
    )
    return new_token


def lower_with_effect_token(ctx, effect, emit) -> None:
    """Thread ``effect``'s token through ``emit(token) -> token`` when it is ordered."""
    if is_ordered(effect):
        token = emit(ctx.tokens_in.get(effect))
        ctx.set_tokens_out(ctx.tokens_in.update_tokens(_mlir.TokenSet({effect: token})))
    else:
        emit(None)


def is_array_like(value: Any) -> bool:
    """Whether JAX can stage ``value`` as an array operand (JAX's own test where it has one)."""
    abstractify = getattr(_core, "shaped_abstractify", None)
    if abstractify is None:
        return isinstance(value, (jax.Array, np.ndarray, np.generic, bool, int, float, complex))
    try:
        abstractify(value)
    except (AssertionError, TypeError):
        return False
    return True


def _probe_jit_static_arguments() -> None:
    info = getattr(jax.jit(lambda x, n: x, static_argnums=1), "_jit_info", None)
    caps.require_attributes(info, ["static_argnums", "static_argnames"])
    if tuple(info.static_argnums) != (1,):
        raise TypeError("jit's _jit_info.static_argnums does not hold the static positions")


JIT_STATIC_ARGUMENTS = _check(
    "jit-static-arguments",
    "find_nonfinite naming the static argument of a jitted function it was given "
    "(else JAX's error about non-hashable static arguments)",
    _probe_jit_static_arguments,
)


def static_arguments(fun: Any) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The positions and names a jitted ``fun`` takes as static (``static_argnums``,
    ``static_argnames``); empty for anything else, or where this JAX does not say."""
    info = getattr(fun, "_jit_info", None) if JIT_STATIC_ARGUMENTS else None
    if info is None:
        return (), ()
    return tuple(info.static_argnums), tuple(info.static_argnames)


# --- where a callback runs: the host device, its operands and its context --------------


@functools.cache
def host_device() -> Any:
    """The first local CPU device, where host callbacks receive their operands."""
    try:
        return jax.local_devices(backend="cpu")[0]
    except RuntimeError as error:
        raise RuntimeError(
            "jaxdbg_widgets found no local CPU device to hand callback operands to; "
            'make sure "cpu" is in --jax_platforms or the JAX_PLATFORMS variable'
        ) from error


@functools.cache
def _host_sharding() -> jax.sharding.Sharding:
    """The host device's own sharding, by the constructor this JAX does not deprecate."""
    make = getattr(jax.sharding, "make_single_device_sharding", None)
    if make is None:  # before JAX 0.10
        make = jax.sharding.SingleDeviceSharding
    return make(host_device())


_PUT_PARAMETERS = ("aval", "sharding", "xs", "devices", "committed")


def _probe_batched_device_put() -> None:
    put = _needs(_xc, "batched_device_put").batched_device_put
    try:
        names = tuple(inspect.signature(put).parameters)
    except (TypeError, ValueError):  # a compiled function: its signature is its doc's first line
        header = (put.__doc__ or "").partition("(")[2].partition(")")[0]
        names = tuple(part.split(":")[0].split("=")[0].strip() for part in header.split(","))
    if names[: len(_PUT_PARAMETERS)] != _PUT_PARAMETERS:
        raise TypeError(f"batched_device_put takes {names}, not {_PUT_PARAMETERS} first")


FAST_PUT = HOST_CALL and _check(
    "batched-device-put",
    "one direct transfer per callback operand (else jax.device_put)",
    _probe_batched_device_put,
)


def to_host_arrays(values: list[Any]) -> list[Any]:
    """JAX arrays on the host CPU device, as ``jax.device_put`` makes them, for callbacks.

    Operands arriving from XLA are numpy arrays; they are wrapped with one direct buffer
    transfer each instead of ``device_put``'s general dispatch (when this jaxlib has it).
    """
    if not FAST_PUT or not all(type(v) is np.ndarray for v in values):
        return list(jax.device_put(values, host_device()))
    device, sharding = host_device(), _host_sharding()
    return [
        _xc.batched_device_put(_core.shaped_abstractify(v), sharding, [v], [device], True)
        for v in values
    ]


def _probe_mesh_context() -> None:
    _needs(_sharding_impls, "_internal_use_concrete_mesh")
    _needs(_mesh, "use_abstract_mesh", "empty_abstract_mesh")


NO_AMBIENT_MESH = _check(
    "callback-mesh-context",
    "callbacks run with no ambient mesh, as jax.debug's do (else inside the caller's mesh)",
    _probe_mesh_context,
)


@contextmanager
def host_context():
    """Run a callback on the CPU device with no ambient mesh, as ``jax.debug`` does."""
    with ExitStack() as stack:
        stack.enter_context(jax.default_device(host_device()))
        if NO_AMBIENT_MESH:
            empty = getattr(_mesh, "empty_concrete_mesh", None)
            stack.enter_context(_sharding_impls._internal_use_concrete_mesh(empty))
            stack.enter_context(_mesh.use_abstract_mesh(_mesh.empty_abstract_mesh))
        yield


# --- sharding annotations for a callback under jit and shard_map ------------------------


def _probe_callback_sharding() -> None:
    _needs(_sharding_impls, "SPMDAxisContext", "ShardingContext")
    fields = {f.name for f in dataclasses.fields(_sharding_impls.SPMDAxisContext)}
    if not fields >= {"mesh", "manual_axes"}:
        raise TypeError("SPMDAxisContext has no mesh and manual_axes")
    _needs(_config, "use_shardy_partitioner")
    _needs(_xc, "OpSharding")


CALLBACK_SHARDING = HOST_CALL and _check(
    "callback-sharding",
    "jaxdbg host calls under automatic sharding and shard_map",
    _probe_callback_sharding,
)


def _probe_shardy() -> None:
    _needs(_sharding_impls, "SdyArray", "SdyArrayList", "SdyDim")
    caps.require_parameters(
        _sharding_impls.SdyArray, ["mesh_shape", "dim_shardings", "logical_device_ids"]
    )


SHARDY = CALLBACK_SHARDING and _check(
    "callback-sharding-shardy",
    "jaxdbg host calls under the Shardy partitioner",
    _probe_shardy,
)


def _replicated_shardy(avals: list[Any]) -> Any:
    """One replicated Shardy sharding per result (one for none), as JAX's callbacks use."""
    helper = getattr(_callback, "_get_sdy_array_list_for_callbacks", None)
    if helper is not None:
        return helper(avals)
    ndims = [getattr(a, "ndim", 0) for a in avals] or [0]
    return _sharding_impls.SdyArrayList(
        [
            _sharding_impls.SdyArray(
                mesh_shape=(),
                dim_shardings=[_sharding_impls.SdyDim(axes=[], is_open=False)] * ndim,
                logical_device_ids=(),
            )
            for ndim in ndims
        ]
    )


def callback_sharding(ctx):
    """The sharding annotation for a host callback: ``(sharding, partial_auto_axes)``.

    Under automatic sharding the callback runs once on the logical value (maximal sharding);
    under a fully manual ``shard_map`` once per device; with partially manual axes the caller
    must run it only where the automatic axes' index is 0 (``partial_auto_axes`` non-empty).
    """
    if not CALLBACK_SHARDING:
        return None, ()
    axis_context = ctx.module_context.axis_context
    shardy = _config.use_shardy_partitioner.value
    if shardy and not SHARDY:
        return None, ()
    if isinstance(axis_context, _sharding_impls.SPMDAxisContext):
        auto = tuple(set(axis_context.mesh.axis_names) - set(axis_context.manual_axes))
        if auto:
            return (None, auto) if SHARD_MAP else (None, ())
        if shardy:
            return _replicated_shardy(list(ctx.avals_out)), ()
        sharding = _xc.OpSharding()
        sharding.type = _xc.OpSharding.Type.MANUAL
        return sharding, ()
    if isinstance(axis_context, _sharding_impls.ShardingContext):
        if shardy:
            maximal = _sharding_impls.SdyArray(
                mesh_shape=(), dim_shardings=(), logical_device_ids=(0,)
            )
            return _sharding_impls.SdyArrayList((maximal,)), ()
        sharding = _xc.OpSharding()
        sharding.type = _xc.OpSharding.Type.MAXIMAL
        sharding.tile_assignment_dimensions = [1]
        sharding.tile_assignment_devices = [0]
        return sharding, ()
    return None, ()


def _shard_map_function() -> Callable[..., Any]:
    function = getattr(_shard_map, "shard_map", None) or jax.shard_map
    caps.require_parameters(function, ["in_specs", "out_specs"])
    return function


SHARD_MAP = HOST_CALL and _check(
    "shard-map",
    "jaxdbg host calls under a partly manual shard_map run once (else once per device)",
    _shard_map_function,
)


def shard_map_no_operands(fn):
    """``fn`` as a ``shard_map`` over the ambient mesh with no inputs and no outputs."""
    return _shard_map_function()(fn, in_specs=(), out_specs=[])


# --- mesh position while tracing (breakpoint device labels) -------------------------------

MESH_POSITION = _check(
    "mesh-position",
    "breakpoints under shard_map name their device and mesh position",
    lambda: _needs(_mesh, "get_abstract_mesh", "get_concrete_mesh"),
)


def manual_axes() -> tuple[str, ...]:
    """The manual mesh axes in scope while tracing (inside ``shard_map``); ``()`` elsewhere."""
    if not MESH_POSITION:
        return ()
    return tuple(getattr(_mesh.get_abstract_mesh(), "manual_axes", ()))


def concrete_mesh() -> Any:
    """The concrete mesh matching the abstract one in scope, or ``None`` when it is unknown.

    It is known under ``jax.set_mesh``; a mesh passed only to ``shard_map(mesh=...)`` is not
    visible while its body is traced.
    """
    if not MESH_POSITION:
        return None
    abstract, concrete = _mesh.get_abstract_mesh(), _mesh.get_concrete_mesh()
    shape = getattr(abstract, "shape_tuple", None)
    if (
        getattr(concrete, "empty", concrete is None)
        or getattr(concrete, "shape_tuple", None) != shape
    ):
        return None
    return concrete


def lowering_mesh(ctx: Any) -> Any:
    """The concrete mesh of the ``shard_map`` a host call is lowered in, else ``None``.

    Unlike :func:`concrete_mesh` it is known for a mesh passed only to ``shard_map(mesh=...)``.
    """
    if not CALLBACK_SHARDING:
        return None
    axis_context = ctx.module_context.axis_context
    if not isinstance(axis_context, _sharding_impls.SPMDAxisContext):
        return None
    mesh = axis_context.mesh
    return mesh if isinstance(mesh, jax.sharding.Mesh) else None


# --- effects_barrier: the runtime tokens JAX keeps for ordered effects --------------------


def _probe_runtime_tokens() -> None:
    tokens = _needs(_dispatch, "runtime_tokens").runtime_tokens
    for table in ("current_tokens", "output_runtime_tokens"):
        if not isinstance(getattr(tokens, table, None), dict):
            raise TypeError(f"runtime_tokens.{table} is not a dict")
    caps.require_attributes(tokens, ["clear"])


RUNTIME_TOKENS = _check(
    "runtime-tokens",
    "effects_barrier recovers after a failed callback (else jax.effects_barrier)",
    _probe_runtime_tokens,
)


def pending_runtime_tokens() -> tuple[list[Any], Any]:
    """The runtime tokens ``jax.effects_barrier`` waits on, and the set holding them.

    Without access to them, this runs ``jax.effects_barrier`` itself and returns no tokens.
    """
    if not RUNTIME_TOKENS:
        jax.effects_barrier()
        return [], SimpleNamespace(clear=lambda: None)
    tokens = _dispatch.runtime_tokens
    return [*tokens.current_tokens.values(), *tokens.output_runtime_tokens.values()], tokens

"""The one place that touches JAX's private modules and attributes.

Every private name and signature used is checked once, at import, and recorded in the
capability table (``jaxdbg_widgets._capabilities``, library ``"jax"``). Importing never fails:
a failed check turns off only the feature that depends on it, and that feature keeps JAX's
own behaviour (see ``docs/core.md``). Differences between JAX releases are handled by testing
for names and keyword parameters, never by comparing version numbers.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import inspect
import logging
import string
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType, ModuleType, SimpleNamespace
from typing import Any

import jax
import numpy as np
from jax.sharding import SingleDeviceSharding

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core import _jax_standins as _standins


def _module(name: str) -> ModuleType | None:
    """``jax._src.<name>``, imported or read as an attribute of its parent; ``None`` if absent."""
    try:
        return importlib.import_module(f"jax._src.{name}")
    except ImportError:
        parent, _, child = name.rpartition(".")
        return getattr(_module(parent), child, None) if parent else None


_callback = _module("callback")
_config = _module("config")
_core = _module("core")
_debugging = _module("debugging")
_dispatch = _module("dispatch")
_mesh = _module("mesh")
_shard_map = _module("shard_map")
_sharding_impls = _module("sharding_impls")
_ad = _module("interpreters.ad")
_batching = _module("interpreters.batching")
_mlir = _module("interpreters.mlir")
_pe = _module("interpreters.partial_eval")
_xc = _module("lib.xla_client")
_state_discharge = _module("state.discharge")
_debugger_core = _module("debugger.core")
_cli_debugger = _module("debugger.cli_debugger")
_traceback_util = _module("traceback_util")
_linear_util = _module("linear_util")


def _needs(module: ModuleType | None, *names: str) -> ModuleType:
    """``module``, after checking it was imported and has every one of ``names``."""
    if module is None:
        raise ImportError("this JAX has no such private module")
    caps.require_attributes(module, names)
    return module


def _keywords(function: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(function).parameters)


def _check(name: str, feature: str, probe: Callable[[], Any]) -> bool:
    return caps.check("jax", name, feature, probe).ok


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

if HOST_CALL:
    Primitive = _core.Primitive
    DebugEffect = _debugging.DebugEffect
    OrderedDebugEffect = _debugging.OrderedDebugEffect
    debug_effect = _debugging.debug_effect
    ordered_debug_effect = _debugging.ordered_debug_effect
    primitive_batchers = _batching.primitive_batchers
    primitive_jvps = _ad.primitive_jvps
    primitive_transposes = _ad.primitive_transposes
    partial_eval_custom_rules = _pe.partial_eval_jaxpr_custom_rules
    lower_fun = _mlir.lower_fun
    is_ordered = _debugging.effects.ordered_effects.contains
else:
    Primitive = _standins.Primitive
    DebugEffect = _standins.DebugEffect
    OrderedDebugEffect = _standins.OrderedDebugEffect
    debug_effect = _standins.debug_effect
    ordered_debug_effect = _standins.ordered_debug_effect
    is_ordered = _standins.is_ordered
    primitive_batchers, primitive_jvps, primitive_transposes = {}, {}, {}
    partial_eval_custom_rules: dict[Any, Any] = {}


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
def _host_sharding() -> SingleDeviceSharding:
    return SingleDeviceSharding(host_device())


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


# --- JAX's debugger registry and callback loggers ------------------------------------------


def _probe_registry() -> None:
    registry = _needs(_debugger_core, "_debugger_registry", "register_debugger")._debugger_registry
    if not isinstance(registry, dict):
        raise TypeError("jax's _debugger_registry is not a dict")
    for entry in registry.values():
        priority, backend = entry
        if not isinstance(priority, int) or not callable(backend):
            raise TypeError("jax's debugger registry entries are not (priority, backend)")


DEBUGGER_REGISTRY = _check(
    "debugger-registry",
    "the jaxdbg debugger backend and its unloading (else JAX's own debugger)",
    _probe_registry,
)


def debugger_registry() -> dict[str, tuple[int, Any]] | None:
    """JAX's table of debugger backends, ``name -> (priority, backend)``; ``None`` when unusable."""
    return _debugger_core._debugger_registry if DEBUGGER_REGISTRY else None


def _cli_backend() -> Callable[..., None]:
    run = _needs(_cli_debugger, "run_debugger").run_debugger
    caps.require_parameters(run, ["frames", "thread_id"])
    return run


CLI_DEBUGGER = _check(
    "cli-debugger",
    "JAX's typed debugger answers jaxdbg breakpoints when the registry is unusable",
    _cli_backend,
)


def jax_cli_debugger() -> Callable[..., None] | None:
    """JAX's own typed debugger, ``backend(frames, thread_id, **kwargs)``; ``None`` if missing."""
    return _cli_debugger.run_debugger if CLI_DEBUGGER else None


def _sample_frame(value: float) -> Iterator[None]:
    """A frame to capture in the probe: suspended, it has no caller, and one local."""
    yield value


def _copied(frame: Any) -> Any:
    """JAX's ``DebuggerFrame`` with its locals copied into a dict.

    From Python 3.13 a function frame's ``f_locals`` is a live view of the frame: kept as is,
    it sees every later binding, including the captured frames themselves, whose flattening
    then never ends.
    """
    return dataclasses.replace(frame, locals=dict(frame.locals))


def _probe_debugger_frames() -> None:
    frame_type = _needs(_debugger_core, "DebuggerFrame").DebuggerFrame
    caps.require_attributes(frame_type, ["from_frameinfo"])
    if not dataclasses.is_dataclass(frame_type):
        raise TypeError("jax's DebuggerFrame is not a dataclass")
    _needs(_traceback_util, "include_frame")
    sample = _sample_frame(1.0)
    next(sample)
    (info,) = inspect.getouterframes(sample.gi_frame)
    frame = _copied(frame_type.from_frameinfo(info))
    leaves, treedef = jax.tree_util.tree_flatten(frame)
    rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
    if rebuilt is frame or not isinstance(rebuilt, frame_type) or rebuilt.locals != {"value": 1.0}:
        raise TypeError("jax's DebuggerFrame is not a pytree of its locals")


JAX_FRAMES = _check(
    "debugger-frames",
    "jax.debug.breakpoint hands backends not jaxdbg's (cli, colab, a user's) exactly JAX's "
    "frames (else jaxdbg's user frames without globals)",
    _probe_debugger_frames,
)


def jax_breakpoint_frames(
    start: FrameType, *, filter_frames: bool, num_frames: int | None
) -> list[Any] | None:
    """The frames ``jax.debug.breakpoint`` captures when called from ``start``, by JAX's code.

    JAX's own ``DebuggerFrame``s, innermost first, with its own rule for internal frames;
    ``None`` where this JAX lacks them.
    """
    if not JAX_FRAMES:
        return None
    infos = inspect.getouterframes(start)
    if filter_frames:
        infos = [info for info in infos if _traceback_util.include_frame(info.frame)]
    if num_frames is not None:
        infos = infos[:num_frames]
    return [_copied(_debugger_core.DebuggerFrame.from_frameinfo(info)) for info in infos]


def _loggers() -> tuple[str, ...]:
    names = []
    for module in (_debugging, _callback):
        logger = _needs(module, "logger").logger
        if not isinstance(logger, logging.Logger):
            raise TypeError(f"{module.__name__}.logger is not a logging.Logger")
        names.append(logger.name)
    return tuple(names)


CALLBACK_LOGGERS = _check(
    "callback-loggers",
    "a failed callback shown once as the cell's error (else JAX's log line too)",
    _loggers,
)


def callback_logger_names() -> tuple[str, ...]:
    """The loggers JAX reports a failed ``jax.debug`` callback on; ``()`` when unknown."""
    return _loggers() if CALLBACK_LOGGERS else ()


# --- jax.debug.print's own format check ----------------------------------------------------


def _print_formatter() -> string.Formatter:
    formatter = _needs(_debugging, "formatter").formatter
    if not isinstance(formatter, string.Formatter):
        raise TypeError("jax's debug print formatter is not a string.Formatter")
    return formatter


JAX_PRINT_CHECK = _check(
    "print-format-check",
    "jax.debug.print's stand-in raises JAX's own errors for a bad format, word for word "
    "(else jaxdbg's, of the same types)",
    _print_formatter,
)


def check_jax_print_format(fmt: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Run ``jax.debug.print``'s own format check, raising what it raises.

    ``False`` (nothing checked) where this JAX has no such check to use.
    """
    if not JAX_PRINT_CHECK:
        return False
    _debugging.formatter.format(fmt, *args, **kwargs)
    return True


# --- Pallas: whether a kernel body is being traced ------------------------------------------

_pallas_core = _module("pallas.core")


def _pallas_grid_context() -> Callable[[], Any]:
    """A reader of the grid context of the Pallas kernel being traced (``None`` outside one).

    JAX 0.11+ keeps it in a config state (``_grid_context``), older JAX on a thread-local
    tracing environment (``_pallas_tracing_env.grid_context``).
    """
    state = getattr(_pallas_core, "_grid_context", None)
    if state is not None and hasattr(state, "value"):
        return lambda: state.value
    env = _needs(_pallas_core, "_pallas_tracing_env")._pallas_tracing_env
    caps.require_attributes(env, ["grid_context"])
    return lambda: env.grid_context


PALLAS_KERNEL = _check(
    "pallas-grid-context",
    "jaxdbg prints inside Pallas kernels staged as jax.debug.print (else as host calls)",
    _pallas_grid_context,
)


def in_pallas_kernel() -> bool:
    """Whether a Pallas kernel body is being traced, where only JAX's own prints lower."""
    return PALLAS_KERNEL and _pallas_grid_context()() is not None


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


# --- whether JAX created its backends: device flags and jax.distributed come before -------

_xla_bridge = _module("xla_bridge")


def _probe_backends_started() -> None:
    started = _needs(_xla_bridge, "backends_are_initialized").backends_are_initialized
    if not isinstance(started(), bool):
        raise TypeError("xla_bridge.backends_are_initialized() did not return a bool")


BACKENDS_STARTED = _check(
    "backends-started",
    "jaxdbg_widgets.cluster refusing an engine that already ran JAX before the others wait",
    _probe_backends_started,
)


def backends_started() -> bool | None:
    """Whether JAX has created its backends (device flags and ``jax.distributed`` then come
    too late); ``None`` when this JAX cannot say."""
    return bool(_xla_bridge.backends_are_initialized()) if BACKENDS_STARTED else None


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
    setattr(_api_util, _NAN_RECHECK, recheck)

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
    return getattr(_api_util, _NAN_RECHECK) if NAN_RECHECK else None


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
    undo puts JAX's impl back.
    """
    if not NAN_RECHECK_TRANSFORMED:
        raise RuntimeError("this JAX's check of a transformed jit cannot be answered (see status)")
    previous = _pjit.jit_p.impl

    def impl(*args: Any, jaxpr: Any, name: str, **params: Any) -> Any:
        retrace = _retrace_of(jaxpr)
        try:
            return previous(*args, jaxpr=jaxpr, name=name, **params)
        except _api_util.InternalFloatingPointError as error:
            stack = str(_source_info_util.current_name_stack())
            search(error, jaxpr, args, name, stack, retrace)
            raise

    impl.search = search
    with ExitStack() as undo:
        if TRANSPOSED_RULE_LINES:
            undo.callback(_record_transpositions())
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


# --- the program a top-level jit is tracing (jdw.watch_compiles) ----------------------------

_TRACE_PARAMETERS = ["fun", "ji", "ctx_mesh", "dbg", "avals", "args", "kwargs"]
# JAX 0.7 traces in two functions: _infer_params_internal holds the call (the function it
# calls deletes ``args``), and _create_pjit_jaxpr, further in, binds the program (``jaxpr`` and
# ``consts``) before the trace event is recorded.
_TRACE_PARAMETERS_07 = ["fun", "ji", "args", "kwargs"]


def _trace_code_now() -> tuple[Any, Any]:
    """The code of the frame that holds a top-level jit's call and, where it is another one,
    of the frame that binds its program; checked against this JAX's source."""
    trace = getattr(_pjit, "_trace_for_jit", None)
    if trace is not None:
        names = list(inspect.signature(trace).parameters)
        if names[: len(_TRACE_PARAMETERS)] != _TRACE_PARAMETERS:
            raise TypeError(f"pjit._trace_for_jit takes ({', '.join(names)})")
        _require_source(trace, ("JAXPR_TRACE_EVENT", "jaxpr, out_avals = pe.trace_to_jaxpr"))
        return trace.__code__, None
    infer = _needs(_pjit, "_infer_params_internal", "_create_pjit_jaxpr")._infer_params_internal
    names = list(inspect.signature(infer).parameters)
    if names != _TRACE_PARAMETERS_07:
        raise TypeError(f"pjit._infer_params_internal takes ({', '.join(names)})")
    _require_source(infer, ("_infer_params_impl(",))
    create = _cached_function(_pjit._create_pjit_jaxpr, "_create_pjit_jaxpr")
    _require_source(
        create, ("JAXPR_TRACE_EVENT", "jaxpr, global_out_avals, consts = pe.trace_to_jaxpr")
    )
    return infer.__code__, create.__code__


def _cached_function(cached: Any, name: str) -> Any:
    """The function named ``name`` that JAX's ``lu.cache`` wraps in ``cached`` (in its closure)."""
    for cell in getattr(cached, "__closure__", None) or ():
        value = cell.cell_contents
        if getattr(value, "__name__", None) == name and hasattr(value, "__code__"):
            return value
    raise TypeError(f"pjit.{name} is not a cached function of JAX's")


def _require_source(function: Callable[..., Any], needed: tuple[str, ...]) -> None:
    source = inspect.getsource(function)
    for text in needed:
        if text not in source:
            raise TypeError(f"{function.__qualname__} no longer has {text!r}")


def _probe_trace_facts() -> None:
    global _TRACE_CODE, _PROGRAM_CODE
    _TRACE_CODE, _PROGRAM_CODE = _trace_code_now()


_TRACE_CODE: Any = None
_PROGRAM_CODE: Any = None
TRACE_FACTS = _check(
    "jit-trace-facts",
    "watch_compiles naming each traced function, its arguments and static arguments, and "
    "sizing its program (else the program's name and times only)",
    _probe_trace_facts,
)


@dataclasses.dataclass(frozen=True)
class TraceFacts:
    """What a top-level ``jit`` trace works on: the function, its call and its program."""

    function: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    static_argnums: tuple[int, ...]
    static_argnames: tuple[str, ...]
    jaxpr: Any
    frame: FrameType
    """The frame that called into JAX (where to look for the user's call site)."""


def trace_facts(frame: FrameType | None) -> TraceFacts | None:
    """The trace in progress on this thread at or above ``frame``; ``None`` when there is none
    or this JAX cannot say (read while JAX records the end of a trace)."""
    if _TRACE_CODE is None:
        return None
    jaxpr = None
    while frame is not None and frame.f_code is not _TRACE_CODE:
        if frame.f_code is _PROGRAM_CODE:
            jaxpr = _closed_program(frame.f_locals)
        frame = frame.f_back
    if frame is None:
        return None
    local = frame.f_locals
    ji = local["ji"]
    return TraceFacts(
        function=local["fun"],
        args=tuple(local["args"]),
        kwargs=dict(local["kwargs"]),
        static_argnums=tuple(getattr(ji, "static_argnums", ()) or ()),
        static_argnames=tuple(getattr(ji, "static_argnames", ()) or ()),
        jaxpr=local.get("jaxpr") if _PROGRAM_CODE is None else jaxpr,
        frame=frame,
    )


def _closed_program(local: Any) -> Any:
    """JAX 0.7's program as its trace left it in ``_create_pjit_jaxpr``, closed over its consts."""
    jaxpr, consts = local.get("jaxpr"), local.get("consts")
    if jaxpr is None or consts is None:
        return None
    return _core.ClosedJaxpr(jaxpr, consts)


def _probe_trace_context() -> None:
    _needs(_config, "trace_context", "trace_context_names")
    if len(_config.trace_context_names()) != len(_config.trace_context()):
        raise TypeError("config.trace_context_names() and trace_context() differ in length")


TRACE_CONTEXT = _check(
    "trace-context",
    "watch_compiles naming the config value or context manager that changed JAX's cache key "
    "(else x64, matmul precision and default device only)",
    _probe_trace_context,
)


def trace_context() -> tuple[tuple[str, Any], ...]:
    """The config values and context managers in JAX's tracing cache key, by name."""
    if TRACE_CONTEXT:
        return tuple(zip(_config.trace_context_names(), _config.trace_context(), strict=True))
    return tuple(
        (name, getattr(jax.config, name, None))
        for name in ("jax_enable_x64", "jax_default_matmul_precision", "jax_default_device")
    )


# --- the StableHLO module a jit lowering just made (jdw.watch_compiles) ---------------------

_pxla = _module("interpreters.pxla")


_LOWERING = "_cached_lowering_to_hlo"
"""JAX's lowering function; it is cached (a ``WeakrefLRUCache``), so its frame is known by name
and file, and its source is read from its module."""


def _probe_lowered_module() -> None:
    _needs(_pxla, _LOWERING)
    source = inspect.getsource(_pxla)
    start = source.find(f"\ndef {_LOWERING}(")
    body = source[start : source.find("\ndef ", start + 1)] if start >= 0 else ""
    for needed in ("JAXPR_TO_MLIR_MODULE_EVENT", "lowering_result = mlir.lower_jaxpr_to_module"):
        if needed not in body:
            raise TypeError(f"pxla.{_LOWERING} no longer has {needed!r}")


LOWERED_MODULE = _check(
    "jit-lowered-module",
    "watch_compiles counting each program's StableHLO operations per user line "
    "(else jaxpr equations only)",
    _probe_lowered_module,
)
_LOWERING_FILE = _pxla.__file__ if LOWERED_MODULE else None


def lowered_module(frame: FrameType | None) -> Any:
    """The MLIR module of the lowering in progress at or above ``frame`` (read while JAX records
    the end of a lowering); ``None`` when there is none or this JAX cannot say."""
    if _LOWERING_FILE is None:
        return None
    while frame is not None and (
        frame.f_code.co_name != _LOWERING or frame.f_code.co_filename != _LOWERING_FILE
    ):
        frame = frame.f_back
    result = frame.f_locals.get("lowering_result") if frame is not None else None
    return getattr(result, "module", None)

"""The one place that imports JAX's private modules the core runtime builds on.

Everything else in ``core`` reaches JAX internals through the names defined here, so a
JAX outside the tested range fails in one spot with one clear message.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Any

import jax
import numpy as np
from jax.sharding import SingleDeviceSharding

try:
    from jax._src import callback as _callback
    from jax._src import config as _config
    from jax._src import core as _core
    from jax._src import debugging as _debugging
    from jax._src import dispatch as _dispatch
    from jax._src import mesh as _mesh
    from jax._src import shard_map as _shard_map
    from jax._src import sharding_impls as _sharding_impls
    from jax._src import xla_bridge as _xla_bridge
    from jax._src.interpreters import ad as _ad
    from jax._src.interpreters import batching as _batching
    from jax._src.interpreters import mlir as _mlir
    from jax._src.interpreters import partial_eval as _pe
    from jax._src.lib import xla_client as _xc
    from jax._src.state import discharge as _state_discharge

    _IMPORT_ERROR: ImportError | None = None
except ImportError as error:  # pragma: no cover - a JAX outside the pinned range
    _IMPORT_ERROR = error

_REQUIRED = (
    ("_core", "Primitive"),
    ("_core", "Tracer"),
    ("_core", "shaped_abstractify"),
    ("_debugging", "debug_effect"),
    ("_debugging", "ordered_debug_effect"),
    ("_callback", "emit_python_callback"),
    ("_mlir", "register_lowering"),
    ("_mlir", "lower_fun"),
    ("_batching", "primitive_batchers"),
    ("_ad", "primitive_jvps"),
    ("_ad", "primitive_transposes"),
    ("_pe", "partial_eval_jaxpr_custom_rules"),
    ("_dispatch", "runtime_tokens"),
    ("_sharding_impls", "SPMDAxisContext"),
    ("_sharding_impls", "ShardingContext"),
)


def available() -> bool:
    """Whether this JAX has every private name the core runtime relies on."""
    if _IMPORT_ERROR is not None:
        return False
    scope = globals()
    return all(hasattr(scope[module], name) for module, name in _REQUIRED)


def require() -> None:
    """Raise a clear error when this JAX lacks what the core runtime needs."""
    if not available():
        raise RuntimeError(
            "jaxdbg_widgets.core needs JAX internals (callback lowering, effects, "
            "transformation rule tables) that this JAX version does not provide; "
            "install a JAX within the range pinned in pyproject.toml"
        ) from _IMPORT_ERROR


require()

Primitive = _core.Primitive
Tracer = _core.Tracer
DebugEffect = _debugging.DebugEffect
OrderedDebugEffect = _debugging.OrderedDebugEffect
debug_effect = _debugging.debug_effect
ordered_debug_effect = _debugging.ordered_debug_effect
primitive_batchers = _batching.primitive_batchers
primitive_jvps = _ad.primitive_jvps
primitive_transposes = _ad.primitive_transposes
partial_eval_custom_rules = _pe.partial_eval_jaxpr_custom_rules
register_lowering = _mlir.register_lowering
lower_fun = _mlir.lower_fun
register_discharge_rule = _state_discharge.register_discharge_rule
is_ordered = _debugging.effects.ordered_effects.contains


def is_array_like(value: Any) -> bool:
    """Whether JAX can stage ``value`` as an array operand (JAX's own test)."""
    try:
        _core.shaped_abstractify(value)
    except (AssertionError, TypeError):
        return False
    return True


@functools.cache
def host_device():
    """The first local CPU device, where host callbacks receive their operands."""
    try:
        return _xla_bridge.local_devices(backend="cpu")[0]
    except RuntimeError as error:
        raise RuntimeError(
            "jaxdbg_widgets found no local CPU device to hand callback operands to; "
            'make sure "cpu" is in --jax_platforms or the JAX_PLATFORMS variable'
        ) from error


@functools.cache
def _host_sharding() -> SingleDeviceSharding:
    return SingleDeviceSharding(host_device())


def to_host_arrays(values: list[Any]) -> list[Any]:
    """JAX arrays on the host CPU device, as ``jax.device_put`` makes them, for callbacks.

    Operands arriving from XLA are numpy arrays; they are wrapped with one direct buffer
    transfer each instead of ``device_put``'s general dispatch (when this jaxlib has it).
    """
    if not hasattr(_xc, "batched_device_put") or not all(type(v) is np.ndarray for v in values):
        return list(jax.device_put(values, host_device()))
    device, sharding = host_device(), _host_sharding()
    return [
        _xc.batched_device_put(_core.shaped_abstractify(v), sharding, [v], [device], True)
        for v in values
    ]


@contextmanager
def host_context():
    """Run a callback on the CPU device with no ambient mesh, as ``jax.debug`` does."""
    with (
        _config.default_device(host_device()),
        _sharding_impls._internal_use_concrete_mesh(_mesh.empty_concrete_mesh),
        _mesh.use_abstract_mesh(_mesh.empty_abstract_mesh),
    ):
        yield


def callback_sharding(ctx):
    """The sharding annotation for a host callback: ``(sharding, partial_auto_axes)``.

    Under automatic sharding the callback runs once on the logical value (maximal sharding);
    under a fully manual ``shard_map`` once per device; with partially manual axes the caller
    must run it only where the automatic axes' index is 0 (``partial_auto_axes`` non-empty).
    """
    axis_context = ctx.module_context.axis_context
    shardy = _config.use_shardy_partitioner.value
    if isinstance(axis_context, _sharding_impls.SPMDAxisContext):
        auto = tuple(set(axis_context.mesh.axis_names) - set(axis_context.manual_axes))
        if auto:
            return None, auto
        if shardy:
            return _callback._get_sdy_array_list_for_callbacks(ctx.avals_out), ()
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


def shard_map_no_operands(fn):
    """``fn`` as a ``shard_map`` over the ambient mesh with no inputs and no outputs."""
    return _shard_map.shard_map(fn, in_specs=(), out_specs=[])


def emit_host_call(ctx, host_fn, operands, *, token, partitioned: bool, sharding):
    """Lower a Python call with JAX's own python-callback lowering; return the new token."""
    _, new_token, _ = _callback.emit_python_callback(
        ctx,
        host_fn,
        token,
        list(operands),
        ctx.avals_in,
        ctx.avals_out,
        has_side_effect=True,
        returns_token=True,
        partitioned=partitioned,
        sharding=sharding,
    )
    return new_token


def lower_with_effect_token(ctx, effect, emit) -> None:
    """Thread ``effect``'s token through ``emit(token) -> token`` when it is ordered."""
    if is_ordered(effect):
        token = emit(ctx.tokens_in.get(effect))
        ctx.set_tokens_out(ctx.tokens_in.update_tokens(_mlir.TokenSet({effect: token})))
    else:
        emit(None)


def pending_runtime_tokens() -> tuple[list[Any], Any]:
    """The runtime tokens ``jax.effects_barrier`` waits on, and the set holding them."""
    tokens = _dispatch.runtime_tokens
    return [*tokens.current_tokens.values(), *tokens.output_runtime_tokens.values()], tokens


def manual_axes() -> tuple[str, ...]:
    """The manual mesh axes in scope while tracing (inside ``shard_map``); ``()`` elsewhere."""
    get = getattr(_mesh, "get_abstract_mesh", None)
    return tuple(getattr(get(), "manual_axes", ())) if get is not None else ()


def concrete_mesh() -> Any:
    """The concrete mesh matching the abstract one in scope, or ``None`` when it is unknown.

    It is known under ``jax.set_mesh``; a mesh passed only to ``shard_map(mesh=...)`` is not
    visible while its body is traced.
    """
    get_abstract = getattr(_mesh, "get_abstract_mesh", None)
    get_concrete = getattr(_mesh, "get_concrete_mesh", None)
    if get_abstract is None or get_concrete is None:
        return None
    abstract, concrete = get_abstract(), get_concrete()
    shape = getattr(abstract, "shape_tuple", None)
    if getattr(concrete, "empty", True) or getattr(concrete, "shape_tuple", None) != shape:
        return None
    return concrete

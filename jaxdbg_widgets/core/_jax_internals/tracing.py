"""What a top-level jit is tracing and lowering, read from its frames
(``jdw.watch_compiles``): the function, its arguments, the context and the StableHLO module.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from types import FrameType
from typing import Any

import jax

from jaxdbg_widgets.core._jax_internals._probe import (
    _check,
    _config,
    _core,
    _module,
    _needs,
)
from jaxdbg_widgets.core._jax_internals.nan_checks import (
    _pjit,
)

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

"""JAX's own debugging machinery: its debugger registry and frames, its callback loggers,
``jax.debug.print``'s format check, and whether a Pallas kernel body is being traced.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
import string
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import jax

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core._jax_internals._probe import (
    _callback,
    _check,
    _cli_debugger,
    _debugger_core,
    _debugging,
    _module,
    _needs,
    _traceback_util,
)

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


# inspect maps a frame to its module by reading the file of every module loaded since it last
# did (thousands after jax and a test runner): done once here, outside the probe's CPU budget,
# which the probe's trace hooks would otherwise spend on it.
inspect.getmodule(inspect.currentframe())


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


def _asserts_a_string() -> bool:
    """Whether ``jax.debug.print`` asserts that its format is a string before anything else,
    as JAX 0.12.1 and later do (older JAX fails in the format check: a ``TypeError``)."""
    try:  # JAX's own function: jax.debug.print may be the stand-in by now
        return "assert isinstance(fmt, str)" in inspect.getsource(_debugging.debug_print)
    except (AttributeError, OSError, TypeError):
        return False


_ASSERTS_A_STRING = _asserts_a_string()


def check_jax_print_string(fmt: Any) -> None:
    """Fail on a format that is not a string where and as ``jax.debug.print`` does first: by
    the same ``assert``, so ``python -O`` drops it for both."""
    if _ASSERTS_A_STRING:
        assert isinstance(fmt, str)


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

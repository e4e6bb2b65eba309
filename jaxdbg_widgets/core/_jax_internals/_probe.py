"""Reading JAX's private modules: each imported once, by name, and each name a feature
needs checked at load and recorded in the capability table (library ``"jax"``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

from jaxdbg_widgets import _capabilities as caps


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

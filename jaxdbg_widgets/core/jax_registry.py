"""JAX's debugger registry as the extension needs it: look up, list, register and undo.

JAX offers ``register_debugger`` but no way to remove or list backends, which the
extension needs to unload cleanly and ``%jaxdbg status`` needs to report. The registry
itself is reached through the JAX adapter (``_jax_internals``); when this JAX's registry
cannot be used, registering does nothing and breakpoints use JAX's own debugger.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._undo import put_entry
from jaxdbg_widgets.core import _jax_internals as jx

logger = logging.getLogger("jaxdbg_widgets")

Backend = Callable[..., None]


def available() -> bool:
    """Whether this JAX exposes the registry we know how to read and change."""
    return jx.debugger_registry() is not None


def _registry() -> dict[str, tuple[int, Any]]:
    registry = jx.debugger_registry()
    if registry is None:
        raise RuntimeError(
            "this JAX's debugger registry cannot be used by jaxdbg_widgets "
            "(see %jaxdbg status); breakpoints use JAX's own debugger"
        )
    return registry


def lookup(name: str | None) -> Backend:
    """The backend registered as ``name``, else the highest-priority one (JAX's own rule).

    Where the registry cannot be used this is JAX's own typed debugger.
    """
    if not available() and jx.jax_cli_debugger() is not None:
        return jx.jax_cli_debugger()
    registry = _registry()
    if name is not None and name in registry:
        return registry[name][1]
    if not registry:
        raise RuntimeError("no debugger backend is registered with JAX")
    return max(registry.values(), key=lambda entry: entry[0])[1]


def backends() -> list[tuple[str, int]]:
    """Registered backend names with their priorities, highest priority first."""
    if not available():
        return []
    return sorted(((name, prio) for name, (prio, _) in _registry().items()), key=lambda b: -b[1])


def default_backend() -> str | None:
    """The backend ``jax.debug.breakpoint()`` uses when no ``backend=`` is given."""
    ranked = backends()
    return ranked[0][0] if ranked else None


def register(name: str, backend: Backend, priority: int) -> Callable[[], None]:
    """Register ``backend`` under ``name`` (replacing an earlier one of ours); return its undo.

    Where the registry cannot be used this registers nothing, so JAX's own debugger stays.
    """
    registry = jx.debugger_registry()
    if registry is None:
        logger.info("jaxdbg backend %r not registered: JAX's registry is unavailable", name)
        return lambda: None
    return put_entry(registry, name, (priority, backend))


def snapshot() -> dict[str, tuple[int, Any]]:
    """A copy of the registry, for tests that check unloading restores it."""
    return dict(_registry()) if available() else {}

"""The one place that touches JAX's private debugger registry (``jax._src.debugger.core``).

JAX offers ``register_debugger`` but no way to remove or list backends, which the
extension needs to unload cleanly and ``%jaxdbg status`` needs to report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    from jax._src.debugger import core as _jax_debugger_core
except ImportError:  # pragma: no cover - a JAX outside the pinned range
    _jax_debugger_core = None

Backend = Callable[..., None]


def available() -> bool:
    """Whether this JAX exposes the registry we know how to read and change."""
    return _jax_debugger_core is not None and isinstance(
        getattr(_jax_debugger_core, "_debugger_registry", None), dict
    )


def _registry() -> dict[str, tuple[int, Any]]:
    if not available():
        raise RuntimeError(
            "this JAX version has no debugger registry that jaxdbg_widgets can use; "
            "install a JAX within the range pinned in pyproject.toml"
        )
    return _jax_debugger_core._debugger_registry


def lookup(name: str | None) -> Backend:
    """The backend registered as ``name``, else the highest-priority one (JAX's own rule)."""
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
    """Register ``backend`` under ``name`` (replacing an earlier one of ours); return its undo."""
    registry = _registry()
    previous = registry.get(name)
    registry[name] = (priority, backend)

    def undo() -> None:
        if previous is None:
            registry.pop(name, None)
        else:
            registry[name] = previous

    return undo


def snapshot() -> dict[str, tuple[int, Any]]:
    """A copy of the registry, for tests that check unloading restores it."""
    return dict(_registry()) if available() else {}

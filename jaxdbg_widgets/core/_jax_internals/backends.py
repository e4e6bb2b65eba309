"""Whether JAX has created its backends: device flags and ``jax.distributed`` must come
before (``%jaxdbg cluster``).
"""

from __future__ import annotations

from jaxdbg_widgets.core._jax_internals._probe import (
    _check,
    _module,
    _needs,
)

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

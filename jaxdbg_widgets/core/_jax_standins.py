"""Stand-ins for JAX's primitive machinery, used when this JAX lacks what the adapter checks.

They let the core modules define their primitive and its rules unchanged; nothing is
registered with JAX, and host calls then run through ``jax.debug.callback`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class DebugEffect:
    """Stands in for JAX's debug effect type."""


class OrderedDebugEffect(DebugEffect):
    """Stands in for JAX's ordered debug effect type."""


debug_effect = DebugEffect()
ordered_debug_effect = OrderedDebugEffect()


def is_ordered(effect: Any) -> bool:
    """Whether ``effect`` is the ordered stand-in effect."""
    return isinstance(effect, OrderedDebugEffect)


class Primitive:
    """A primitive that keeps its rules but is never bound (binding raises)."""

    multiple_results = False

    def __init__(self, name: str) -> None:
        self.name = name

    def def_impl(self, impl: Callable[..., Any]) -> Callable[..., Any]:
        """Accept the implementation rule, unused."""
        return impl

    def def_effectful_abstract_eval(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Accept the abstract evaluation rule, unused."""
        return rule

    def bind(self, *args: Any, **params: Any) -> Any:
        """Refuse: this JAX cannot stage the primitive."""
        raise RuntimeError(f"this JAX cannot stage {self.name}; host calls use jax.debug")


def register_discharge_rule(primitive: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Accept a discharge rule, unused."""
    del primitive
    return lambda rule: rule

"""The effects of the core primitive: JAX's own debug effects, shared on purpose.

Using ``jax.debug``'s effect types means an ordered ``jaxdbg_widgets.print`` and an ordered
``jax.debug.print`` share one token, so program order holds across both.
"""

from jaxdbg_widgets.core._jax_internals import (
    DebugEffect,
    OrderedDebugEffect,
    debug_effect,
    ordered_debug_effect,
)

__all__ = [
    "DebugEffect",
    "OrderedDebugEffect",
    "debug_effect",
    "effect_for",
    "ordered_debug_effect",
]


def effect_for(ordered: bool) -> DebugEffect | OrderedDebugEffect:
    """The effect instance a host call carries: ordered or not."""
    return ordered_debug_effect if ordered else debug_effect

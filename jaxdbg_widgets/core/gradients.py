"""``print_grad``: an identity whose backward pass prints the cotangent it receives."""

from __future__ import annotations

from functools import partial
from typing import Any

import jax

from jaxdbg_widgets.core.callsite import CallSite, user_call_site
from jaxdbg_widgets.core.printing import print_from


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def _identity(x: Any, fmt: str, ordered: bool, site: CallSite) -> Any:
    return x


def _forward(x, fmt, ordered, site):
    return x, None


def _backward(fmt, ordered, site, _, cotangent):
    print_from(site, fmt, cotangent, ordered=ordered)
    return (cotangent,)


_identity.defvjp(_forward, _backward)


def print_grad(x: Any, fmt: str = "grad: {}", *, ordered: bool = False) -> Any:
    """Return ``x`` unchanged; when differentiated, print the cotangent flowing into it.

    ``fmt`` has one positional placeholder for the cotangent (a pytree like ``x``). The print
    is attributed to this call, not to the ``grad`` that runs the backward pass.
    """
    if not isinstance(fmt, str):
        raise TypeError(f"print_grad needs a format string, but got {type(fmt).__name__}")
    return _identity(x, fmt, ordered, user_call_site())

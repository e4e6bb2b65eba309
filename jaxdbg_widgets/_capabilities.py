"""Capability checks for the private APIs of JAX, IPython and ipykernel, in one table.

Each adapter (``core/_jax_internals.py`` for JAX, the ``_kernel`` package for IPython,
ipykernel and CPython's thread and signal hooks) records one :class:`Capability` per private
thing it relies on: a name and a signature checked at load, and the user-facing feature that
is turned off when the check fails. This table is the one source of truth: the rest of the
package asks :func:`has` and never probes again. ``%jaxdbg status`` and the load message read
it too; nothing here imports a foreign library.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Capability:
    """One private API checked at load: what it enables, and why it is off when it is."""

    library: str  # "jax", "ipykernel", "ipython" or "python"
    name: str  # a short stable id, e.g. "callback-lowering"
    feature: str  # what the user loses when it fails, e.g. "jaxdbg print inside jit"
    ok: bool
    reason: str = ""  # one line, set when ``ok`` is False

    def line(self) -> str:
        """One line for status output: ``jax callback-lowering: off (reason)``."""
        state = "ok" if self.ok else f"off ({self.reason})"
        return f"{self.library} {self.name}: {state}"


_lock = threading.Lock()
_table: dict[tuple[str, str], Capability] = {}


def check(library: str, name: str, feature: str, probe: Callable[[], Any]) -> Capability:
    """Run ``probe`` (which raises when the API is missing or changed) and record the result."""
    try:
        probe()
    except Exception as error:  # a failed probe turns a feature off; it never fails the caller
        # imported here: the JAX adapter records its checks while jaxdbg_widgets.core loads
        from jaxdbg_widgets.core.errors import one_line

        capability = Capability(library, name, feature, False, one_line(error))
    else:
        capability = Capability(library, name, feature, True)
    with _lock:
        _table[(library, name)] = capability
    return capability


def has(library: str, name: str) -> bool:
    """Whether the capability was checked and passed (unchecked counts as unavailable)."""
    capability = _table.get((library, name))
    return capability is not None and capability.ok


def was_checked(library: str, name: str) -> bool:
    """Whether the capability has a recorded result, passed or not."""
    return (library, name) in _table


def all_capabilities() -> list[Capability]:
    """Every recorded capability, in the order they were first checked."""
    with _lock:
        return list(_table.values())


def degraded() -> list[Capability]:
    """The capabilities that failed their check."""
    return [c for c in all_capabilities() if not c.ok]


def require_attributes(owner: Any, names: Iterable[str]) -> None:
    """Raise ``AttributeError`` naming the first of ``names`` that ``owner`` lacks."""
    for name in names:
        if not hasattr(owner, name):
            raise AttributeError(f"{getattr(owner, '__name__', owner)!s} has no {name}")


def require_parameters(function: Callable[..., Any], names: Iterable[str]) -> None:
    """Raise ``TypeError`` when ``function`` does not accept each of ``names`` by keyword."""
    parameters = inspect.signature(function).parameters
    accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    missing = [n for n in names if n not in parameters and not accepts_any]
    if missing:
        qualified = getattr(function, "__qualname__", repr(function))
        raise TypeError(f"{qualified}() has no parameter {', '.join(missing)}")

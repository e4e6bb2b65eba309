"""Capability checks for the private APIs of JAX, IPython and ipykernel, in one table.

Each adapter (the ``core/_jax_internals`` package for JAX, the ``_kernel`` package for IPython,
ipykernel and CPython's thread and signal hooks) records one :class:`Capability` per private
thing it relies on: a name and a signature checked at load, and the user-facing feature that
is turned off when the check fails. This table is the one source of truth: the rest of the
package asks :func:`has` and never probes again. ``%jaxdbg status`` and the load message read
it too; nothing here imports a foreign library.

Every probe is bounded (:data:`PROBE_SECONDS`): one that loops past its budget is stopped and
its feature turned off, so a private API that changed shape can never hang a load.
"""

from __future__ import annotations

import inspect
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

PROBE_SECONDS = 1.0
"""The most CPU time one probe may use; they take milliseconds, so only a loop reaches it."""
_EVENTS_PER_READ = 64


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


class ProbeOverrun(BaseException):
    """Raised inside a probe that ran past its budget.

    A ``BaseException``, so that a probe's own ``except Exception`` does not swallow it.
    """


def _arm(seconds: float) -> list[bool]:
    """Stop this thread's code with :class:`ProbeOverrun` once it has used ``seconds`` of CPU.

    CPU time, not wall time: a loop uses it up whatever else the machine is doing, while a
    probe that a busy machine only delays does not. A trace function reads the clock every
    ``_EVENTS_PER_READ`` calls and lines; once over, every call and line raises. CPython drops a trace or profile function that
    raises, so each one arms the other before it raises: the stop comes again at the next call
    or line, even through a bare ``except:``. The caller disarms by setting the returned flag
    to False before it makes any call, then restores the hooks.
    """
    limit = time.thread_time() + seconds
    armed = [True]
    events = [0]
    message = f"ran past its {seconds:g} s budget at load and was stopped"

    def overran() -> bool:
        events[0] += 1
        if events[0] % _EVENTS_PER_READ == 0 and time.thread_time() > limit:
            events[0] = -1  # over for good: every later event raises
        return armed[0] and events[0] < 0

    def on_trace(frame: Any, event: str, arg: Any) -> Any:
        if overran():
            sys.setprofile(on_profile)
            raise ProbeOverrun(message)
        return on_trace

    def on_profile(frame: Any, event: str, arg: Any) -> None:
        if overran():
            sys.settrace(on_trace)
            raise ProbeOverrun(message)

    sys.settrace(on_trace)
    return armed


def _run_bounded(probe: Callable[[], Any], seconds: float) -> BaseException | None:
    """Run ``probe`` under a time budget; the exception it raised (or its overrun), else None."""
    trace, profile = sys.gettrace(), sys.getprofile()
    armed = _arm(seconds)
    error: BaseException | None = None
    try:
        probe()
    except (Exception, ProbeOverrun) as caught:
        error = caught
    finally:
        armed[0] = False  # first, before any call: the hooks may not raise past this line
        sys.setprofile(profile)
        sys.settrace(trace)
    return error


def check(
    library: str,
    name: str,
    feature: str,
    probe: Callable[[], Any],
    *,
    seconds: float | None = None,
) -> Capability:
    """Run ``probe`` (which raises when the API is missing or changed) and record the result.

    The probe runs under a time budget (``seconds``, else :data:`PROBE_SECONDS`); one that
    overruns is stopped and counts as failed. A failed probe turns its feature off, no more.
    """
    error = _run_bounded(probe, PROBE_SECONDS if seconds is None else seconds)
    if error is None:
        capability = Capability(library, name, feature, True)
    else:
        # imported here: the JAX adapter records its checks while jaxdbg_widgets.core loads
        from jaxdbg_widgets.core.errors import one_line

        capability = Capability(library, name, feature, False, one_line(error))
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

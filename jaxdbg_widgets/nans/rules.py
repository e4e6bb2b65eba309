"""The ``custom_vjp`` backward rule a backward-pass origin ran in, from a second trace.

JAX gives every backward-pass equation the traceback of the forward call, so a backward
rule's own lines are invisible in the program the search ran. Tracing once more with the
equations' own tracebacks kept (the whole function for ``find_nonfinite``, the transposition
alone for a backward program JAX's rule ran), the equation at the same position shows the
rule's frames. JAX's trace caches are cleared around that trace, so the next call of a jitted
function compiles again once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax
from jax.extend.core import ClosedJaxpr, Jaxpr

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import CallSite
from jaxdbg_widgets.nans.origin import batch_of, source_lines
from jaxdbg_widgets.nans.program import Stripped, prepare
from jaxdbg_widgets.nans.report import Origin


def _equations(jaxpr: Jaxpr) -> Iterator[Any]:
    """Every equation of ``jaxpr`` and its sub-programs, in one fixed order."""
    for eqn in jaxpr.eqns:
        yield eqn
        for value in eqn.params.values():
            for sub in value if isinstance(value, tuple) else (value,):
                if isinstance(sub, ClosedJaxpr):
                    yield from _equations(sub.jaxpr)
                elif isinstance(sub, Jaxpr):
                    yield from _equations(sub)


def _twin(eqn: Any, jaxpr: Jaxpr, again: Jaxpr) -> Any:
    """The equation of ``again``, a second trace of ``jaxpr``, at ``eqn``'s position; ``None``
    where the two traces differ in shape."""
    first = list(_equations(jaxpr))
    position = next((i for i, e in enumerate(first) if e is eqn), None)
    second = list(_equations(again))
    if position is None or len(second) != len(first):
        return None
    twin = second[position]
    return twin if twin.primitive.name == eqn.primitive.name else None


@dataclass(frozen=True)
class Retrace:
    """How to trace the searched program again with the backward equations' own tracebacks,
    and the lines (the caller's) where an ordinary backward equation's own traceback ends."""

    trace: Callable[[], Jaxpr]
    known: frozenset[tuple[str, int]] = frozenset()


def retrace_function(
    fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], caller: CallSite
) -> Retrace:
    """The retrace of ``find_nonfinite(fun, *args, **kwargs)`` called at ``caller``."""

    def trace() -> Jaxpr:
        jax.clear_caches()  # a cached transposition would bring back the forward tracebacks
        try:
            with internals.own_transpose_tracebacks():
                return jax.make_jaxpr(fun)(*args, **kwargs).jaxpr
        finally:
            jax.clear_caches()  # and later traces must not reuse these

    return Retrace(trace, frozenset({(caller.filename, caller.lineno)}))


def with_backward_rule(origin: Origin, eqn: Any, jaxpr: Jaxpr, retrace: Retrace) -> Origin:
    """``origin`` with the backward rule's line first, when it ran inside one; else as it was.

    An ordinary backward equation's own traceback ends in the differentiated function or at
    one of ``retrace.known``; a rule's goes on into the rule.
    """
    if origin.direction != "backward" or not internals.RULE_TRACEBACKS:
        return origin
    twin = _twin(eqn, jaxpr, prepare(retrace.trace(), Stripped()))
    if twin is None:
        return origin
    lines = source_lines(twin)
    known = {(f.filename, f.lineno) for f in origin.frames} | retrace.known
    functions = {f.function for f in origin.frames}
    if not lines or (lines[0].filename, lines[0].lineno) in known or lines[0].function in functions:
        return origin
    return dataclasses.replace(
        origin,
        frames=(lines[0], *origin.frames),
        rule=f"custom_vjp backward rule {lines[0].function}",
    )


def with_batch_axes(origin: Origin, eqn: Any, jaxpr: Jaxpr, retrace: Retrace) -> Origin:
    """``origin`` with its batch elements where its batch axis was not known because JAX
    handed the program from its caches: the program is traced again (caches cleared) while
    ``vmap``'s batch axes are noted, and the equation at the same position read."""
    if origin.batch is None or origin.batch.elements is not None:
        return origin
    with internals.recording_batch_axes():
        again = prepare(retrace.trace(), Stripped())
    twin = _twin(eqn, jaxpr, again)
    if twin is None:
        return origin
    outs = [origin.values.get(f"out{i}") for i in range(len(twin.outvars))]
    axes = [internals.batch_axis(v) for v in twin.outvars]
    return dataclasses.replace(origin, batch=batch_of("vmap", outs, axes))

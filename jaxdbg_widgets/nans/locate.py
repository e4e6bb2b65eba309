"""The entry points of the NaN search: a call traced and searched (``find_nonfinite``), or a
program JAX already traced (``%jaxdbg nans on``), and how the two searches (first non-finite
value, first NaN) make one report.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import jax
import numpy as np
from jax.extend.core import ClosedJaxpr

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import user_call_site
from jaxdbg_widgets.nans.origin import source_lines
from jaxdbg_widgets.nans.program import Level, Stripped, count_equations, prepare
from jaxdbg_widgets.nans.progress import SearchProgress, Sink, Ticker
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin
from jaxdbg_widgets.nans.rules import Retrace, retrace_function, with_backward_rule, with_batch_axes
from jaxdbg_widgets.nans.search import Search, Where
from jaxdbg_widgets.nans.summary import summarize
from jaxdbg_widgets.nans.validation import Arguments

_CHECK_FLAGS = ("jax_debug_nans", "jax_debug_infs")


@contextlib.contextmanager
def _checks_off() -> Iterator[None]:
    """JAX's own NaN/Inf checks off during the search (its values are meant to hold NaNs).

    The flags are set and put back globally: JAX's thread-local ``jax.debug_nans(False)``
    block leaves its post-call check off for the thread afterwards, even when the flag is on.
    """
    saved = {flag: bool(getattr(jax.config, flag)) for flag in _CHECK_FLAGS}
    for flag, value in saved.items():
        if value:
            jax.config.update(flag, False)
    try:
        yield
    finally:
        for flag, value in saved.items():
            if value:
                jax.config.update(flag, True)


def search_call(name: str, arguments: Arguments, sink: Sink) -> NonfiniteReport:
    """The report of ``find_nonfinite`` for a call whose arguments are already split; a long
    search's progress goes to ``sink``."""
    require_evaluation()
    caller = user_call_site()
    program, values = arguments.program, arguments.values
    with _checks_off():
        with internals.recording_batch_axes():
            closed = jax.make_jaxpr(program)(*values)
        retrace = retrace_function(program, values, {}, caller)
        where = Where()
        return _report(name, closed, arguments.named, retrace, where, sink, arguments.local_names)


def search_program(
    name: str,
    closed: ClosedJaxpr,
    values: Sequence[Any],
    sink: Sink,
    name_stack: str = "",
    retrace: Callable[[], ClosedJaxpr] | None = None,
) -> NonfiniteReport:
    """The report of ``find_nonfinite`` for a program JAX already traced, run on ``values``.

    ``name_stack`` is the transformation the program was made by (``transpose(jvp())`` for a
    backward pass, ``vmap()`` for a batched one), so the origin names its pass and batch
    elements as inside ``find_nonfinite(jax.grad(...))``. ``retrace`` traces a backward
    program again with its equations' own tracebacks, so a ``custom_vjp`` backward rule's
    origin names the rule's line; without it, the origin names the line that called the
    function.
    """
    require_evaluation()
    named = [(f"arg{i}", value) for i, value in enumerate(values)]
    again = Retrace(lambda: retrace().jaxpr) if retrace is not None else None
    where = Where(scope=(name_stack,) if name_stack else ())
    with _checks_off():
        return _report(name, closed, named, again, where, sink)


def require_evaluation() -> None:
    """Raise ``RuntimeError`` where this JAX cannot evaluate equations one by one."""
    if not internals.JAXPR_EVAL:
        raise RuntimeError(
            "find_nonfinite cannot evaluate equations on this JAX (see %jaxdbg status)"
        )


def _report(
    name: str,
    closed: ClosedJaxpr,
    named: list[tuple[str, Any]],
    retrace: Retrace | None,
    where: Where,
    sink: Sink,
    local_names: list[str] | None = None,
) -> NonfiniteReport:
    """Search ``closed`` on the ``named`` values, with JAX's checks already off; the
    debugger's locals name them ``local_names``, or as the trace kept their names."""
    if not closed.jaxpr.eqns:
        raise ValueError(
            f"{name} traces to no equations: its outputs are its inputs or constants, "
            "so there is nothing to search"
        )
    stripped = Stripped()
    jaxpr = prepare(closed.jaxpr, stripped)
    skipped = tuple(line for eqn in stripped.equations for line in source_lines(eqn)[:1])
    total = count_equations(jaxpr)
    dead = count_equations(closed.jaxpr) - len(stripped.equations) - total
    bad_args = tuple(s for s in (summarize(n, v) for n, v in named) if not s.finite)
    if bad_args:
        return NonfiniteReport(name, 0, total, None, bad_args, skipped, dead=dead)
    ticker = Ticker(name, total, sink)
    try:
        names = local_names or _local_names(jaxpr, named)
        found = _locate(jaxpr, closed.consts, named, names, ticker, retrace, where)
    except KeyboardInterrupt:
        found = None  # raised below, so the search's frames and values go with this one
    if found is None:
        raise KeyboardInterrupt(_interrupted(ticker.finish("interrupted")))
    ticker.finish("done")
    checked, origin, nan_origin, lead = found
    return NonfiniteReport(name, checked, total, origin, (), skipped, nan_origin, lead, dead)


def _locate(
    jaxpr: Any,
    consts: list[Any],
    named: list[tuple[str, Any]],
    local_names: list[str],
    ticker: Ticker,
    retrace: Retrace | None,
    where: Where,
) -> tuple[int, Origin | None, Origin | None, str]:
    """The equations checked, the origin, after an infinity the first NaN's, and the
    definition the origin answers (``NonfiniteReport.lead``)."""
    leaves = [_as_array(v, var.aval) for (_, v), var in zip(named, jaxpr.invars, strict=True)]
    arg_names = dict(zip(jaxpr.invars, local_names, strict=True))
    levels: dict[tuple[int, Any], Level] = {}
    search = Search(arg_names, "nonfinite", ticker, levels)
    origin = search.search(search.level(ClosedJaxpr(jaxpr, consts), where), leaves, where)
    if origin is not None:
        origin = _with_rule(origin, search.origin_eqn, jaxpr, retrace)
        if search.nan_first:  # a NaN from a constant's infinities came first
            return search.checked, _brought_in(origin, search.carried), None, "nan"
        if any(s.nan for s in origin.outputs):
            return search.checked, origin, None, "nonfinite"
    nan_search = Search(arg_names, "nan", ticker, levels)
    nan_origin = nan_search.search(
        nan_search.level(ClosedJaxpr(jaxpr, consts), where), leaves, where
    )
    if nan_origin is not None:
        nan_origin = _with_rule(nan_origin, nan_search.origin_eqn, jaxpr, retrace)
    if origin is not None:
        return search.checked, origin, nan_origin, "nonfinite"
    if nan_origin is not None:  # every infinity came from a constant, as a mask's -inf
        return nan_search.checked, _brought_in(nan_origin, search.carried), None, "nan"
    carried = search.carried or nan_search.carried
    if carried is None:
        return search.checked, None, None, "nonfinite"
    eqn = search.carried_eqn if search.carried is not None else nan_search.carried_eqn
    return search.checked, _with_rule(carried, eqn, jaxpr, retrace), None, "constant"


def _as_array(value: Any, aval: Any) -> Any:
    """An argument as the program reads it: a Python or NumPy value as a host array of the
    traced dtype (no compiled conversion), anything else through ``jnp.asarray``."""
    if isinstance(value, jax.Array):
        return value
    dtype = getattr(aval, "dtype", None)
    if isinstance(dtype, np.dtype):
        return np.asarray(value, dtype)
    return jax.numpy.asarray(value)


def _brought_in(origin: Origin, constant: Origin | None) -> Origin:
    """``origin`` with a note naming the line where a constant first brought an infinity in
    (``s = jnp.where(mask, s, -jnp.inf)``), when its inputs hold one."""
    if constant is None or all(s.finite for s in origin.inputs):
        return origin
    line = constant.source
    where = line.describe() if line is not None else f"{constant.primitive}, no user line kept"
    note = f"its inputs' infinities came from a constant, first brought in at {where}"
    return replace(origin, notes=(*origin.notes, note))


def _with_rule(origin: Origin, eqn: Any, jaxpr: Any, retrace: Retrace | None) -> Origin:
    """``origin`` with its backward rule's line and, where its trace came from JAX's caches,
    its batch axis, where the program can be traced again."""
    if retrace is None:
        return origin
    return with_batch_axes(with_backward_rule(origin, eqn, jaxpr, retrace), eqn, jaxpr, retrace)


def _local_names(jaxpr: Any, named: list[tuple[str, Any]]) -> list[str]:
    """Each argument's name as a local: the parameter's own name where the trace kept one that
    is an identifier (``x``, ``lr``), else its path (``arg0``, ``arg1['w']``)."""
    kept = internals.argument_names(jaxpr) or (None,) * len(named)
    return [
        own if own is not None and own.isidentifier() else path
        for own, (path, _) in zip(kept, named, strict=True)
    ]


def _interrupted(reading: SearchProgress) -> str:
    """What an interrupted search says: how far it went, and that JAX's checks are back."""
    where = f", at {reading.line.describe()}" if reading.line is not None else ""
    return (
        f"find_nonfinite({reading.function}) stopped after {reading.checked:,} equations "
        f"checked in {reading.seconds:.1f} s{where}; JAX's jax_debug_nans and jax_debug_infs "
        "are as they were"
    )

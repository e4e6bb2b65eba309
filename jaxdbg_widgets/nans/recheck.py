"""A jitted call's failed NaN/Inf check answered by the search instead of JAX's re-run.

With ``jax_debug_nans``/``jax_debug_infs`` on, JAX checks each jitted call's outputs and, when
one is bad, re-runs the function de-optimized op by op (so every print and callback inside runs
a second time) to raise a ``FloatingPointError``. While :func:`install`'s replacement is in
place, ``find_nonfinite`` searches the call instead, running no callback, and the error raised
names the origin and carries the search's report (:func:`nonfinite_error`). Where the search
finds nothing (a NaN only the compiled program makes) or cannot read the call, JAX's own re-run
and message follow.

A ``jit`` under an outer, unjitted transformation (``jax.grad(jax.jit(f))``,
``jax.vmap(jax.jit(f))``) is run by that transformation's rule as a program of its own: the
forward pass of its derivative, its backward pass, or its batched form. Where this JAX allows
it (``nan-recheck-transformed``), :func:`search_transformed` searches that program on the
values it failed on, so the origin names its pass and batch elements.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any, NoReturn

import jax

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.nans.display import NonfiniteReportView
from jaxdbg_widgets.nans.locate import search_call, search_program
from jaxdbg_widgets.nans.progress_view import progress_sink
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin
from jaxdbg_widgets.nans.shard_map_step import step_report
from jaxdbg_widgets.nans.text import render_text
from jaxdbg_widgets.nans.validation import split_arguments

SHARDS_NAMED = 4
"""Shards named on the error's first line; the report below lists more."""

UNKNOWN_LINE = "a line JAX kept no user frame for"
"""Where an origin's equation has no user frame: its line is not known, not absent."""

FAILURE_TEXT = 200
"""Longest text of a search's failure on the line it adds to JAX's error."""


def nonfinite_error(message: str, report: NonfiniteReport | None = None) -> FloatingPointError:
    """JAX's own error type, so ``except FloatingPointError`` and tracebacks read as without
    the search, carrying the ``report`` and, as ``debugger_frames()``, the frames at its origin."""
    error = FloatingPointError(message)
    viewed = NonfiniteReportView.of(report) if report is not None else None
    error.report = viewed
    error.debugger_frames = viewed.frames if viewed is not None else list
    return error


def available() -> bool:
    """Whether this JAX lets its re-run be replaced (``nan-recheck`` in ``%jaxdbg status``)."""
    return internals.NAN_RECHECK


def transformed_available() -> bool:
    """Whether a jit under an outer transformation is searched too (``nan-recheck-transformed``)."""
    return internals.NAN_RECHECK_TRANSFORMED


def install() -> Callable[[], None]:
    """Answer failed checks with the search, a transformed jit's too where this JAX allows it,
    and an unjitted shard_map's with its devices, until the returned undo runs."""
    with ExitStack() as undo:
        undo.enter_context(internals.recording_batch_axes())  # batched programs traced while on
        undo.callback(internals.replace_nan_recheck(search_instead))
        if transformed_available():
            undo.callback(internals.replace_transformed_nan_check(search_transformed))
        if internals.SHARD_MAP_NAN_CHECK:
            undo.callback(internals.replace_shard_map_nan_check(answer_shard_map))
        return undo.pop_all().close


def installed() -> bool:
    """Whether failed checks, a transformed jit's and a shard_map's included where possible,
    get the search now."""
    transformed = internals.transformed_nan_check_installed()
    shard_map = internals.shard_map_nan_check_installed()
    return (
        internals.nan_recheck_installed() is search_instead
        and (transformed is search_transformed or not transformed_available())
        and (shard_map is answer_shard_map or not internals.SHARD_MAP_NAN_CHECK)
    )


def search_instead(
    error: Exception, fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """Raise a ``FloatingPointError`` at the origin of ``fun(*args, **kwargs)``'s bad output.

    Whatever goes wrong inside the search, the error raised is the one JAX's re-run raises,
    with the search's failure added as one line, so ``except FloatingPointError`` still holds.
    A jitted call that JAX's re-run reaches gets JAX's own handling: the search answers the
    outermost call only.
    """
    if _jax_rerunning():
        _jax_rerun(error, fun, args, kwargs)
    name = getattr(fun, "__name__", None) or type(fun).__name__
    kind = getattr(error, "ty", "nan")
    try:
        arguments = split_arguments(fun, args, kwargs)
    except ValueError as gone:
        raise nonfinite_error(
            f"invalid value ({kind}) in the output of jit({name}); the search for its origin "
            f"needs the call's arguments, but {gone}"
        ) from None
    if any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves((args, kwargs))):
        _jax_rerun(error, fun, args, kwargs)  # a tracer of an outer grad: nothing to search on
    try:
        report = search_call(name, arguments, progress_sink())
    except Exception as failure:  # a failed search must never replace JAX's error
        _jax_rerun(error, fun, args, kwargs, _failure_line(failure))
    if not report.found:
        _jax_rerun(error, fun, args, kwargs)
    raise nonfinite_error(message(report, kind), report) from None


def _failure_line(failure: Exception) -> str:
    """The one line a failed search adds to JAX's error: what failed, and that JAX re-ran."""
    text = one_line(failure)
    text = text if len(text) <= FAILURE_TEXT else text[: FAILURE_TEXT - 1] + "…"
    return (
        f"(jaxdbg: the search for the origin failed with {text}; "
        "the message above is JAX's, after its de-optimized re-run)"
    )


def search_transformed(
    error: Exception,
    jaxpr: Any,
    args: tuple[Any, ...],
    name: str,
    name_stack: str,
    retrace: Callable[[], Any] | None = None,
) -> None:
    """Raise a ``FloatingPointError`` at the origin of a program an outer transformation ran.

    ``jaxpr`` is the program JAX's rule bound for ``jit(name)`` under ``name_stack``
    (``transpose(jvp())``, ``vmap()``) and ``args`` the values its check failed on;
    ``retrace`` traces a backward program again so a ``custom_vjp`` rule's line is found.
    Returning (nothing found, or a program the search cannot run) leaves JAX's own handling
    to go on.
    """
    if not all(internals.is_array_like(arg) for arg in args):
        return
    try:
        report = search_program(name, jaxpr, args, progress_sink(), name_stack, retrace)
    except Exception:  # a failed search leaves JAX's own handling and error to go on
        return
    if report.found:
        program = transformed_program(name, name_stack)
        raise nonfinite_error(
            message(report, getattr(error, "ty", "nan"), program), report
        ) from None


def answer_shard_map(step: internals.ShardMapStep, outs: Any) -> None:
    """Raise at an unjitted ``shard_map`` step whose outputs failed the check, with a report
    naming its primitive, line, the devices whose blocks went bad and their first elements.

    Inside JAX's de-optimized re-run of a jitted call (a jitted ``shard_map`` the search could
    not answer) the step is named as part of that re-run, which ran the call again."""
    rerun = _rerun_name()
    report = step_report(step, outs, again=rerun is not None)
    if report is None:
        return
    origin = report.origin
    kind = "nan" if any(s.nan for s in origin.outputs) else "inf"
    devices = f"on {len(origin.shards)} of {origin.shard_count} devices"
    if rerun is None:
        where, ran = "an unjitted shard_map step", "nothing was run again"
    else:
        where = f"a shard_map step of JAX's de-optimized re-run of jit({rerun})"
        ran = "JAX ran the call again to find it"
    raise nonfinite_error(
        f"invalid value ({kind}) in {where}: first made by {_place(origin)} "
        f"{devices}; {ran}\n{render_text(report)}",
        report,
    ) from None


def transformed_program(name: str, name_stack: str) -> str:
    """``the backward pass of jit(loss)``, ``jit(f) under vmap``: the program JAX's rule ran."""
    program = f"jit({name})"
    if "transpose" in name_stack:
        program = f"the backward pass of {program}"
    elif "jvp" in name_stack:
        program = f"the forward pass of {program} under differentiation"
    return f"{program} under vmap" if "vmap" in name_stack else program


_rerun = threading.local()
"""Per thread, whether JAX's de-optimized re-run is under way (its inner jits are JAX's)."""


def _jax_rerunning() -> bool:
    return bool(getattr(_rerun, "names", None))


def _rerun_name() -> str | None:
    """The function JAX's de-optimized re-run is running on this thread, if one is."""
    names = getattr(_rerun, "names", None)
    return names[-1] if names else None


def _jax_rerun(
    error: Exception,
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    added: str | None = None,
) -> NoReturn:
    """JAX's de-optimized re-run, which raises its own ``FloatingPointError``; ``added`` is
    one more line for its message. Jitted calls inside the re-run get JAX's handling too."""
    if not hasattr(_rerun, "names"):
        _rerun.names = []
    _rerun.names.append(getattr(fun, "__name__", None) or type(fun).__name__)
    try:
        internals.jax_nan_recheck(error, fun, args, kwargs)
    except FloatingPointError as raised:
        if added is not None:
            raised.args = (f"{raised}\n{added}",)  # JAX's error, type and traceback kept
        raise
    finally:
        _rerun.names.pop()
    raise AssertionError("JAX's de-optimized re-run returned instead of raising")


def message(report: NonfiniteReport, kind: str, program: str | None = None) -> str:
    """A first line naming the program, the origin and what was skipped, then the whole report."""
    head = f"invalid value ({kind}) in the output of {program or f'jit({report.function})'}"
    origin = report.origin
    if origin is None:
        first = f"{head}: an argument is already non-finite"
    else:
        made = {"nan": "first NaN made", "constant": "first held (from a constant)"}
        first = f"{head}: {made.get(report.lead, 'first made')} by {_place(origin)}"
        if report.nan_origin is not None:
            first += f"; first NaN made by {_place(report.nan_origin)}"
    skipped = len(report.skipped_callbacks)
    rerun = (
        f"; {skipped} debug print/callback call(s) skipped, not run again"
        if skipped
        else "; nothing was run again"
    )
    return f"{first}{rerun}\n{render_text(report)}"


def _place(origin: Origin) -> str:
    """``log at file.py:6 in body: ... (forward; scan iteration 3; batch elements 1)``."""
    source = origin.source
    line = source.describe() if source is not None else UNKNOWN_LINE
    where = [origin.direction]
    if origin.path:
        where.append(" > ".join(origin.path))
    if origin.shards:
        where.append(", ".join(s.describe() for s in origin.shards[:SHARDS_NAMED]))
    if origin.batch is not None:
        where.append(origin.batch.short())
    return f"{origin.primitive} at {line} ({'; '.join(where)})"

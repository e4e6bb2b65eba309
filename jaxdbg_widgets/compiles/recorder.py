"""Feeds the active :class:`CompileReport`s from JAX's public monitoring events.

One duration listener (``jax.monitoring``) is registered while any report is active and
unregistered when the last one stops. JAX calls it only when it traces, lowers or compiles,
never on a cached call, so watching costs nothing on a cache hit. A trace is read further
(function, call site, signature, program size) through the JAX adapter where it can be.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import jax

from jaxdbg_widgets.compiles import capture
from jaxdbg_widgets.compiles.model import NOT_TRACED, CompileReport, Program, ProgramSize
from jaxdbg_widgets.compiles.program import program_size, with_hlo
from jaxdbg_widgets.core import _jax_internals as internals

EVENTS = {
    "/jax/core/compile/jaxpr_trace_duration": "trace",
    "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
    "/jax/core/compile/backend_compile_duration": "compile",
}
"""JAX's event names (``jax._src.dispatch``) for each stage."""

_lock = threading.Lock()
_active: tuple[CompileReport, ...] = ()
_registered = False
_pending = threading.local()
"""Per thread, the program each report got from the last trace (its lowering and compile follow)."""


class CaptureFailed(Exception):
    """Internal: reading a trace went wrong; the program is recorded by name only."""


def _listen(event: str, duration: float, **kwargs: Any) -> None:
    """JAX's duration listener: a trace, lowering or compile just ended on this thread."""
    stage = EVENTS.get(event)
    reports = _active
    if stage is None or not reports:
        return
    name = str(kwargs.get("fun_name", "?"))
    frame = sys._getframe(1)
    if stage == "trace":
        _traced(reports, name, duration, frame)
    else:
        _staged(reports, stage, name, duration, frame)


def _read_trace(name: str, frame: Any) -> dict[str, Any]:
    """The trace's function, call site, signature and size; by name and call site only when
    this JAX cannot say more or reading fails (a trace is never broken by watching it)."""
    try:
        facts = internals.trace_facts(frame)
        if facts is None:
            return {"function": None, "call_site": capture.call_site(frame), "signature": None}
        function = capture.function_of(facts, name)
        return {
            "function": function,
            "call_site": capture.call_site(facts.frame),
            "signature": capture.signature(facts, function),
            "size": program_size(facts.jaxpr, capture.place),
        }
    except Exception:
        return {"function": None, "call_site": capture.call_site(frame), "signature": None}


def _traced(reports: tuple[CompileReport, ...], name: str, seconds: float, frame: Any) -> None:
    """Give every report a new program for the trace that just ended."""
    read = _read_trace(name, frame)
    pending = _pending.__dict__.setdefault("programs", {})
    staged = []
    for report in reports:
        program = report.add(Program(name=name, **read))
        pending[id(report)] = program
        staged.append((report, program))
    _tell(staged, "trace", seconds)


def _tell(staged: list[tuple[CompileReport, Program]], stage: str, seconds: float) -> None:
    """Record ``stage`` in every report; an error a report's listener raises (a guard's
    ``TooManyCompiles``) is raised once all of them have it, so no report misses a stage."""
    error: BaseException | None = None
    for report, program in staged:
        try:
            report.stage(program, stage, seconds)
        except Exception as raised:
            error = error or raised
    if error is not None:
        raise error


def _same_program(traced: str, staged: str) -> bool:
    """``jit(f)`` (a lowering's or compile's name) names the program traced as ``f``."""
    inner = staged[staged.find("(") + 1 : -1] if staged.endswith(")") else staged
    return inner == traced or staged == traced


def _staged(
    reports: tuple[CompileReport, ...], stage: str, name: str, seconds: float, frame: Any
) -> None:
    """Add a lowering's or compile's seconds to the program traced for it (or a new one)."""
    pending = _pending.__dict__.setdefault("programs", {})
    wanted = stage == "lower" and any(report.hlo for report in reports)
    module = internals.lowered_module(frame) if wanted else None
    staged = []
    for report in reports:
        program = pending.get(id(report))
        if program is None or program.stages[stage] or not _same_program(program.name, name):
            program = report.add(_untraced(report, name, frame))
            pending[id(report)] = program
        if module is not None and report.hlo:
            program.size = _sized(program, module)
        staged.append((report, program))
    _tell(staged, stage, seconds)


def _sized(program: Program, module: Any) -> ProgramSize | None:
    """The program's size with the lowered module's operations per line; as it was if that
    fails."""
    name = program.function.name if program.function else program.name  # a qualname, as in MLIR
    try:
        return with_hlo(program.size, module, capture.place, caller=program.call_site, name=name)
    except Exception:  # sizing is a nicety: a module this JAX shapes differently is skipped
        return program.size


def _untraced(report: CompileReport, name: str, frame: Any) -> Program:
    """A program lowered or compiled with no trace before it: JAX had traced it already (maybe
    before watching began), so it belongs to the function last traced under that name."""
    traced = next(
        (
            p
            for p in reversed(report.programs)
            if p.function is not None and _same_program(p.name, name)
        ),
        None,
    )
    function = traced.function if traced is not None else None
    program = Program(
        name=traced.name if traced is not None else name,
        function=function,
        call_site=capture.call_site(frame),
        signature=None,
    )
    program.first = False
    program.note = NOT_TRACED
    return program


def _unregister() -> None:
    """Remove the listener with JAX's public unregister, where this JAX has one."""
    unregister = getattr(jax.monitoring, "unregister_event_duration_listener", None)
    if unregister is not None:
        unregister(_listen)
    # without it (an old JAX) the listener stays, and returns at once while no report is active


def start(report: CompileReport) -> Callable[[], None]:
    """Feed ``report`` every trace, lowering and compile from now on; the undo stops it."""
    global _active, _registered
    with _lock:
        if report in _active:
            raise RuntimeError("this report is already being recorded")
        _active = (*_active, report)
        if not _registered:
            jax.monitoring.register_event_duration_secs_listener(_listen)
            _registered = True

    def stop() -> None:
        """Stop feeding the report; the last one to stop removes the listener."""
        global _active, _registered
        with _lock:
            _active = tuple(r for r in _active if r is not report)
            if not _active and _registered:
                _unregister()
                _registered = (
                    getattr(jax.monitoring, "unregister_event_duration_listener", None) is None
                )
            programs = _pending.__dict__.get("programs", {})
            programs.pop(id(report), None)

    return stop


def active() -> tuple[CompileReport, ...]:
    """The reports being fed now."""
    return _active

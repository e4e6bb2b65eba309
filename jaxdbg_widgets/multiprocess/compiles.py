"""``%jaxdbg cluster compiles``: one compile report of every process of the job.

Each engine keeps its own kernel-wide report (``%load_ext jaxdbg`` on the engines starts it);
one ``apply_sync`` takes every engine's programs, without the live function objects and
signatures that stay behind, and the notebook joins them into one report whose functions are
named with their process (``p2: train_step``), so a process that recompiles where the others
do not stands out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from jaxdbg_widgets.compiles.display import CompileReportView
from jaxdbg_widgets.compiles.model import Program


def engine_programs() -> dict[str, Any]:
    """On an engine: its process index, whether it records, and its programs as they travel."""
    import jax

    from jaxdbg_widgets.compiles.command import KERNEL_REPORT, recording

    return {
        "process": jax.process_index(),
        "recording": recording(),
        "programs": [_travelling(p) for p in list(KERNEL_REPORT.programs)],
    }


def _travelling(program: Program) -> Program:
    """``program`` without what cannot leave its process: the function object and signature."""
    function = replace(program.function, ref=None) if program.function is not None else None
    return replace(program, function=function, signature=None)


def gathered_report(parts: list[dict[str, Any]]) -> CompileReportView:
    """One report of every engine's programs, in process order, each named with its process.

    Raises ValueError when an engine does not record (the extension is not loaded there).
    """
    silent = sorted(part["process"] for part in parts if not part["recording"])
    if silent:
        raise ValueError(
            f"process {', '.join(map(str, silent))} records no compiles: load the extension "
            "on every engine (jdw.cluster does, with load_extension=True)"
        )
    report = CompileReportView()
    for part in sorted(parts, key=lambda p: p["process"]):
        offset = len(report.programs)
        for program in part["programs"]:
            report.programs.append(_of_process(program, part["process"], offset))
    return report


def _of_process(program: Program, process: int, offset: int) -> Program:
    """``program`` named with its process, its indices moved past the earlier processes'."""
    label = f"p{process}: "
    function = program.function
    if function is not None:
        function = replace(function, name=label + function.name)
    compared = program.compared_with
    return replace(
        program,
        name=label + program.name,
        function=function,
        index=program.index + offset,
        compared_with=None if compared is None else compared + offset,
    )


def cluster_compiles(view: Any = None) -> CompileReportView:
    """Every trace, lowering and compile of every process of the job (default: the job that
    ``jaxdbg_widgets.cluster`` joined last), with each program's cause, in one report.

    Raises ValueError with the first engine's error in one line.
    """
    from jaxdbg_widgets.multiprocess import job

    view = view if view is not None else job.current_view()
    try:
        parts = view.apply_sync(engine_programs)
    except Exception as err:
        raise ValueError(f"cluster compiles: {job.engine_reason(err)}") from None
    return gathered_report(parts)


def show(words: list[str]) -> None:
    """Display the job's report (the magic takes no words after ``compiles``)."""
    if words:
        raise ValueError(f"cluster compiles takes nothing more, not {' '.join(words)!r}")
    from IPython.display import display

    display(cluster_compiles())

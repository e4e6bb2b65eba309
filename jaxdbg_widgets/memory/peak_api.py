"""``peak_memory``: compile a function ahead of time and say why its peak memory is what it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.core.lowering import lower_abstract
from jaxdbg_widgets.memory.assignment import Assignment, read_assignment
from jaxdbg_widgets.memory.peak import PeakReport, build_report
from jaxdbg_widgets.memory.peak_display import PeakMemory
from jaxdbg_widgets.memory.program import program_entries
from jaxdbg_widgets.memory.proto_wire import WireError
from jaxdbg_widgets.memory.units import parse_bytes


def peak_memory(
    f: Any, *args: Any, device_memory: str | int | None = None, **kwargs: Any
) -> PeakMemory:
    """The buffers live at a program's peak per device, by source line, before anything runs.

    ``f`` is a function (jitted or not) or a dict of named variants compared side by side;
    ``args`` are arrays or ``jax.ShapeDtypeStruct``s (with shardings), so nothing is allocated:
    the program is only lowered and compiled. Lines are the user's, through ``vmap``, ``grad``
    and ``scan``. ``device_memory`` (``"16 GiB"`` or bytes) says whether the peak fits.
    Raises TypeError or ValueError with one line for a non-callable, an empty dict of variants
    or a size that does not parse.
    """
    capacity = None if device_memory is None else parse_bytes(device_memory)
    if not isinstance(f, Mapping) and not callable(f):
        raise TypeError(
            f"peak_memory needs a function or a dict of them, got a {type(f).__name__}: {f!r:.60}"
        )
    variants = dict(f) if isinstance(f, Mapping) else {_name(f): f}
    if not variants:
        raise ValueError("peak_memory: the dict of variants is empty; give at least one function")
    for name, fun in variants.items():
        if not callable(fun):
            raise TypeError(
                f"peak_memory: variant {name!r} is a {type(fun).__name__}, not a function"
            )
    reports = tuple(_report(name, fun, args, kwargs, capacity) for name, fun in variants.items())
    return PeakMemory(reports)


def _name(f: Any) -> str:
    return str(getattr(f, "__name__", None) or type(f).__name__)


def _report(
    name: str, fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any], capacity: int | None
) -> PeakReport:
    try:
        compiled = lower_abstract(fun, args, kwargs).compile()
    except Exception as err:
        raise ValueError(f"peak_memory: {name} did not compile: {one_line(err)}") from None
    _, program = program_entries(compiled)
    xla = _xla_peak(program)
    notes = [n for n in program.notes if "generated-code" not in n]  # not part of this peak
    if xla is None:
        notes.append("XLA reports no argument, output or temporary bytes on this backend")
    assignment = _assignment(compiled, notes) if xla is not None else None
    fixed = program.size("argument") + program.size("output") - program.size("alias")
    return build_report(
        name,
        compiled.as_text(),
        xla,
        devices=tuple(sorted(program.device_ids)),
        flops=_flops(compiled, notes),
        capacity=capacity,
        notes=tuple(notes),
        layout=(assignment, fixed) if assignment is not None else None,
    )


def _assignment(compiled: Any, notes: list[str]) -> Assignment | None:
    """XLA's buffer assignment of ``compiled``, or None with a note saying why not."""
    unread = "the live buffers are counted side by side, without XLA's alignment and packing"
    try:
        serialized = internals.buffer_assignment(compiled, compiled.memory_analysis())
        assignment = None if serialized is None else read_assignment(*serialized)
    except (WireError, RuntimeError, AttributeError, ValueError) as err:
        notes.append(f"XLA's buffer assignment could not be read ({one_line(err)}): {unread}")
        return None
    if assignment is None:
        notes.append(f"this JAX gives no buffer assignment: {unread}")
    elif assignment.unnamed:
        notes.append(f"{assignment.unnamed} temporaries of XLA's assignment name no instruction")
    return assignment


def _xla_peak(program: Any) -> int | None:
    """Arguments + outputs - aliased + temporaries, or None where XLA gave none or only zeros."""
    sizes = dict(program.sizes)
    if all(sizes.get(k) is None for k in ("argument", "output", "temporary")):
        return None
    peak = program.peak - program.size("generated code")
    return peak or None


def _flops(compiled: Any, notes: list[str]) -> float | None:
    try:
        cost = compiled.cost_analysis()
    except Exception as err:
        notes.append(f"no cost analysis: {one_line(err)}")
        return None
    if isinstance(cost, list | tuple):
        cost = cost[0] if cost else None
    flops = cost.get("flops") if isinstance(cost, dict) else None
    if flops is None:
        notes.append("XLA's cost analysis gives no FLOPs here")
    return None if flops is None else float(flops)

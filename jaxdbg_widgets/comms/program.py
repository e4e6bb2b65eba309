"""Compile a function for its arguments without running it, and read what the program expects.

Arrays become ``jax.ShapeDtypeStruct``s (committed ones keep their sharding, as a call would),
so lowering and compiling touch no device data. XLA's stderr is captured during compile for
its rematerialization warnings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets.comms.capture import captured_stderr, remat_warnings
from jaxdbg_widgets.comms.model import ArgumentSharding, MeshInfo, Mismatch, axis_type_names
from jaxdbg_widgets.core.lowering import lower_abstract
from jaxdbg_widgets.memory.program import ProgramMemory, program_entries


@dataclass(frozen=True)
class CompiledProgram:
    """A compiled program with the facts the map needs besides its HLO text."""

    compiled: Any
    text: str
    mesh: MeshInfo | None
    inputs: tuple[ArgumentSharding, ...]
    outputs: tuple[ArgumentSharding, ...]
    mismatches: tuple[Mismatch, ...]
    memory: ProgramMemory | None
    remat_texts: tuple[str, ...]
    notes: tuple[str, ...]


def compile_program(fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> CompiledProgram:
    """Lower and compile ``fun`` for abstract versions of ``args``; a compiled stage is used as is."""
    compiled, remat, _, notes = compile_stage(fun, args, kwargs)
    return read_program(compiled, args, kwargs, remat, notes)


def compile_stage(
    fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, tuple[str, ...], float | None, tuple[str, ...]]:
    """``(compiled, remat warnings, compile seconds, notes)``: the part that is XLA's work."""
    import jax

    _check_function(fun)
    if isinstance(fun, jax.stages.Compiled):
        note = "given a compiled program: its rematerialization warnings were not seen"
        return fun, (), None, (note,)
    lowered = fun if isinstance(fun, jax.stages.Lowered) else lower_abstract(fun, args, kwargs)
    started = time.perf_counter()
    with captured_stderr() as err:
        compiled = lowered.compile()
    seconds = time.perf_counter() - started
    return compiled, tuple(remat_warnings(err.text)), seconds, ()


def read_program(
    compiled: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    remat: tuple[str, ...] = (),
    notes: tuple[str, ...] = (),
) -> CompiledProgram:
    """What a compiled program says besides collectives: text, shardings, copies, memory."""
    entries, memory = program_entries(compiled)
    inputs = tuple(_argument(path, s) for path, s in entries if not path.startswith("out"))
    outputs = tuple(_argument(path, s) for path, s in entries if path.startswith("out"))
    partitions = len(memory.devices) or 1
    mismatches, more = _mismatches(compiled, args, kwargs)
    return CompiledProgram(
        compiled=compiled,
        text=compiled.as_text(),
        mesh=_mesh(inputs + outputs, partitions),
        inputs=inputs,
        outputs=outputs,
        mismatches=mismatches,
        memory=memory,
        remat_texts=remat,
        notes=tuple(notes) + tuple(more),
    )


def _check_function(fun: Any) -> None:
    """Raise a TypeError naming what is expected, before anything tries to lower ``fun``."""
    import jax

    if callable(fun) or isinstance(fun, jax.stages.Lowered | jax.stages.Compiled):
        return
    shown = repr(fun) if len(repr(fun)) <= 60 else repr(fun)[:59] + "…"
    raise TypeError(
        "communication_map expects a function, a jax.jit function, or a lowered or compiled "
        f"stage (jax.jit(f).lower(...), .compile()), but got {type(fun).__name__}: {shown}"
    )


def _argument(path: str, struct: Any) -> ArgumentSharding:
    sharding = getattr(struct, "sharding", None)
    return ArgumentSharding(
        path=path,
        shape=tuple(int(d) for d in struct.shape),
        dtype=str(struct.dtype),
        spec=spec_text(sharding),
        sharding=sharding,
    )


def spec_text(sharding: Any) -> str:
    """``P('x', None)`` for a NamedSharding, the class name otherwise."""
    if sharding is None:
        return "unknown"
    spec = getattr(sharding, "spec", None)
    if spec is not None:
        return repr(spec).replace("PartitionSpec", "P")
    if getattr(sharding, "is_fully_replicated", False):
        return "replicated"
    return type(sharding).__name__


def _mesh(entries: tuple[ArgumentSharding, ...], partitions: int) -> MeshInfo | None:
    """The first mesh among the shardings that covers every partition of the program."""
    for entry in entries:
        mesh = getattr(entry.sharding, "mesh", None)
        devices = getattr(mesh, "devices", None)
        if devices is None or not hasattr(mesh, "axis_names") or devices.size != partitions:
            continue
        return MeshInfo(
            axis_names=tuple(str(a) for a in mesh.axis_names),
            shape=tuple(int(n) for n in devices.shape),
            device_ids=tuple(int(d.id) for d in devices.flat),
            axis_types=axis_type_names(mesh),
            mesh=mesh,
        )
    return None


def _mismatches(
    compiled: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Mismatch, ...], list[str]]:
    """Arguments whose placement now differs from what the program expects (copied each call)."""
    import jax
    import numpy as np

    if not args and not kwargs:
        return (), []
    leaves = jax.tree_util.tree_leaves_with_path((args, kwargs))
    expected = jax.tree_util.tree_leaves(compiled.input_shardings)
    kinds = (jax.Array, np.ndarray, jax.ShapeDtypeStruct)
    arrays = [(p, x) for p, x in leaves if isinstance(x, kinds)]
    if len(arrays) != len(expected):
        return (), ["arguments and the program's inputs do not line up; placement not compared"]
    found = []
    for (path, x), want in zip(arrays, expected, strict=True):
        name = _path_name(path)
        if isinstance(x, jax.ShapeDtypeStruct):
            continue
        if isinstance(x, np.ndarray):
            found.append(Mismatch(name, "host memory (numpy)", spec_text(want)))
            continue
        have = x.sharding
        if not have.is_equivalent_to(want, x.ndim):
            committed = "" if getattr(x, "committed", True) else " (uncommitted)"
            found.append(Mismatch(name, _placement(have) + committed, spec_text(want)))
    return tuple(found), []


def _placement(sharding: Any) -> str:
    devices = sorted(int(d.id) for d in sharding.device_set)
    if len(devices) == 1:
        return f"device {devices[0]} only"
    return spec_text(sharding)


def _path_name(path: Any) -> str:
    import jax

    keys = tuple(path)
    positional = not keys or getattr(keys[0], "idx", 0) == 0
    return ("args" if positional else "kwargs") + jax.tree_util.keystr(keys[1:])

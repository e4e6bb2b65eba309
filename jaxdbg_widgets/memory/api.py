"""``memory_map``: the one public entry point of the memory layer."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.memory import sources
from jaxdbg_widgets.memory.model import MemoryMap, build_memory_map
from jaxdbg_widgets.memory.program import is_program, program_entries


def memory_map(x: Any = None, *, mesh: Any = None) -> MemoryMap:
    """Where every byte lives, per device and per leaf, counting each replica on its device.

    ``x`` is a pytree of arrays, ``None`` for every live array in the process, or a traced,
    lowered or compiled ``jax.jit`` program (its arguments, outputs and XLA's temporary and
    code bytes per device). ``mesh`` lays the heatmap out on that mesh. Call it outside
    ``jit``: inside a transformation the leaves are tracers and are only counted as skipped.
    The result displays as a widget in a notebook, static HTML when saved, and text in a terminal.
    """
    if is_program(x):
        entries, program = program_entries(x)
        return build_memory_map(entries, source="program", mesh=mesh, program=program)
    if x is None:
        import jax

        return build_memory_map(
            sources.live_leaves(), source="live arrays", mesh=mesh, devices=jax.local_devices()
        )
    return build_memory_map(sources.pytree_leaves(x), source="pytree", mesh=mesh)

"""``memory_map``: the one public entry point of the memory layer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jaxdbg_widgets.memory import sources
from jaxdbg_widgets.memory.display import MemoryMap
from jaxdbg_widgets.memory.model import build_memory_map
from jaxdbg_widgets.memory.program import is_program, program_entries


def memory_map(
    x: Any = None, *, mesh: Any = None, namespace: Mapping[str, Any] | None = None
) -> MemoryMap:
    """Where every byte lives, per device and per leaf, counting each replica on its device.

    ``x`` is a pytree of arrays, ``None`` for every live array in the process, or a traced,
    lowered or compiled ``jax.jit`` program (its arguments, outputs and XLA's temporary and
    code bytes per device). ``mesh`` (a ``jax.sharding.Mesh``) lays the heatmap out on that
    mesh. Call it outside ``jit``: inside a transformation the leaves are tracers and are only
    counted as skipped. A function holding no arrays (``jax.jit(f)`` before ``.lower``) raises
    TypeError saying what to pass instead. With ``x=None``, ``namespace`` (e.g. ``globals()``)
    names each live array by the variable that holds it, where one does.
    The result displays as a widget in a notebook, static HTML when saved, and text in a terminal.
    """
    _check_mesh(mesh)
    if is_program(x):
        entries, program = program_entries(x)
        return build_memory_map(
            entries, source="program", mesh=mesh, program=program, kind=MemoryMap
        )
    if x is None:
        import jax

        return build_memory_map(
            sources.live_leaves(namespace),
            source="live arrays",
            mesh=mesh,
            devices=jax.local_devices(),
            kind=MemoryMap,
        )
    memory = build_memory_map(sources.pytree_leaves(x), source="pytree", mesh=mesh, kind=MemoryMap)
    if not memory.leaves and callable(x):
        raise TypeError(_function_hint(x))
    return memory


def _check_mesh(mesh: Any) -> None:
    """A mesh is anything with ``devices`` (an array of devices) and ``axis_names``."""
    if mesh is not None and not (hasattr(mesh, "devices") and hasattr(mesh, "axis_names")):
        raise TypeError(
            f"mesh must be a jax.sharding.Mesh (devices and axis_names), got {type(mesh).__name__}"
        )


def _function_hint(f: Any) -> str:
    """What to pass instead of a function, which holds no arrays until it is called."""
    if callable(getattr(f, "lower", None)):
        return (
            "memory_map got a jitted function, which holds no arrays until it is called: "
            "pass f.lower(*args) (or f.trace(*args)) to map the program's arguments, outputs "
            "and XLA's temporaries, or pass the arrays themselves"
        )
    return (
        f"memory_map got a {type(f).__name__}, which holds no arrays: pass "
        "jax.jit(f).lower(*args) to map the program, or pass the arrays themselves"
    )

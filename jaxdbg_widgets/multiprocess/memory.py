"""``%jaxdbg cluster memory [EXPR]``: one memory map of every process of the job.

Each engine maps ``EXPR`` (a pytree in its namespace; empty: its live arrays, named by its
variables) over every device of the job and returns its part
(:func:`jaxdbg_widgets.memory.gathered.process_part`); one ``apply_sync`` on the job's
ipyparallel view takes them all, as the prints are taken, and the notebook joins them into one
map with each device's process. Nothing else crosses between the processes.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.memory.display import MemoryMap
from jaxdbg_widgets.memory.gathered import gathered_map, process_part


def engine_part(expression: str) -> dict[str, Any]:
    """On an engine: this process's part of the job's map of ``expression``."""
    import jax
    from IPython import get_ipython

    from jaxdbg_widgets.core.errors import one_line
    from jaxdbg_widgets.memory import sources
    from jaxdbg_widgets.memory.model import build_memory_map
    from jaxdbg_widgets.memory.program import is_program

    ip = get_ipython()
    namespace = ip.user_ns if ip is not None else {}
    if expression.strip():
        try:
            value = eval(expression, namespace)
        except Exception as err:
            raise ValueError(f"{expression!r} failed: {one_line(err)}") from None
        if is_program(value):
            raise ValueError(
                "a memory map of every process takes a pytree or the live arrays, not a "
                "program: map the program on one process"
            )
        entries, source = sources.pytree_leaves(value), "pytree"
    else:
        entries, source = sources.live_leaves(namespace), "live arrays"
    memory = build_memory_map(entries, source=source, devices=jax.devices())
    return process_part(memory, jax.process_index())


def cluster_memory_map(expression: str = "", view: Any = None) -> MemoryMap:
    """The map of ``expression`` evaluated on every engine of ``view`` (default: the job that
    ``jaxdbg_widgets.cluster`` joined last), or of every engine's live arrays when it is empty.

    Raises ValueError with the first engine's error in one line.
    """
    from jaxdbg_widgets.multiprocess import job

    view = view if view is not None else job.current_view()
    try:
        parts = view.apply_sync(engine_part, expression)
    except Exception as err:
        raise ValueError(f"cluster memory: {job.engine_reason(err)}") from None
    return gathered_map(parts, kind=MemoryMap)


def show(words: list[str]) -> None:
    """Display the job's map of the words joined as one expression."""
    from IPython.display import display

    display(cluster_memory_map(" ".join(words)))

"""Prints land in the cell whose computation produced them.

ipykernel sends what a thread writes to stdout with that thread's parent header, and a thread
that never set one (an XLA worker running a host callback) falls back to the header of the
request the kernel started most recently. JAX dispatches asynchronously, so a callback can run
after its cell has returned and the next cell has started; its output then shows up there.

The fix is to keep each cell open until the effects it dispatched are done: a ``post_execute``
hook waits for them (the core's recoverable ``effects_barrier``). Every callback of the cell
then writes while the cell's header is still the kernel's current one, whatever thread it
runs on. The same hooks record the
running cell's execution count for the print log, and ``jax.debug.print`` is pointed at
``jaxdbg_widgets.print`` so its prints reach the log too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.core.barrier import effects_barrier
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.notebook import cells

Undo = Callable[[], None]


def wait_for_effects() -> None:
    """Block until every computation dispatched from this thread has finished its effects.

    A failure inside such a computation is reported in one line on stderr, once: the cell is
    over, so raising would only produce a confusing traceback from a hook. The core's barrier
    is used because ``jax.effects_barrier`` would raise the same failure after every later cell.
    """
    try:
        effects_barrier()
    except Exception as err:
        print(
            f"jaxdbg: a computation started in this cell failed: {one_line(err)}", file=sys.stderr
        )


def install(ip: Any) -> Undo:
    """Track the running cell and close each cell only after its effects; return the undo."""

    already_counted = cell_files.counts_cell_before_running(ip)

    def before(info: Any) -> None:
        stored = getattr(info, "store_history", True)
        number = ip.execution_count - 1 if already_counted and stored else ip.execution_count
        cell_files.remember_cell_file(ip, getattr(info, "raw_cell", ""), number)
        cells.set_current_cell(number if stored else None)

    def after(_result: Any) -> None:
        cells.set_current_cell(None)

    previous_cell = cells.current_cell()
    cell_files.remember_cell_history(ip)
    ip.events.register("pre_run_cell", before)
    ip.events.register("post_execute", wait_for_effects)
    ip.events.register("post_run_cell", after)

    def undo() -> None:
        ip.events.unregister("post_run_cell", after)
        ip.events.unregister("post_execute", wait_for_effects)
        ip.events.unregister("pre_run_cell", before)
        cells.set_current_cell(previous_cell)

    return undo


def route_jax_debug_print(_ip: Any) -> Undo:
    """Make ``jax.debug.print`` call ``jaxdbg_widgets.print``; the undo puts the original back.

    Skipped when this JAX cannot build jaxdbg's primitive (``%jaxdbg status`` says why).
    """
    import jax

    from jaxdbg_widgets.core._jax_internals import HOST_CALL

    if not HOST_CALL:
        return lambda: None

    from jaxdbg_widgets.core.printing import jax_debug_print as jaxdbg_print

    original = jax.debug.print
    jax.debug.print = jaxdbg_print

    def undo() -> None:
        jax.debug.print = original

    return undo

"""Every engine's prints in the notebook's print log, labelled with their JAX process, and the
notebook's number of each ``%%px`` cell on every engine.

The lines themselves reach the ``%%px`` cell live as each engine's stdout (ipyparallel
forwards it, ``[stdout:N]``), each carrying its ``[process N]`` label. The records behind them
(call site, time, value summaries) wait in each engine's outbox; after every notebook cell
one ``apply_async`` takes them all, in print order per process, into the session log under
that cell. Nothing else crosses between the processes for printing. Before each ``%%px``
cell, one more ``apply_async`` tells the engines the cell's number, so that the maps, reports
and debugger views the engines make name ``In[N]`` and its lines as the notebook shows them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.multiprocess import engine
from jaxdbg_widgets.multiprocess.cell_hooks import CellHooks
from jaxdbg_widgets.notebook import cells, session_log

WAIT = 5.0
"""Seconds a cell waits for the engines' prints; engines still busy deliver them later."""

_hooks = CellHooks()


def attach(ip: Any, view: Any) -> Callable[[], None]:
    """Take ``view``'s engines' prints after every cell (replacing an earlier view); the undo."""
    _hooks.detach()
    started: list[int | None] = [None]
    stopped = _stop_check(view.client)

    def before(info: Any) -> None:
        started[0] = cells.current_cell()
        raw_cell = getattr(info, "raw_cell", "") or ""
        # a cell run without history has no number of its own: IPython names its code after
        # the count as it stands, and so do the engines
        number = started[0] if started[0] is not None else getattr(ip, "execution_count", None)
        if cell_files.remember_engine_cell(raw_cell, number) and not stopped():
            name_cell_on_engines(view, raw_cell, number)

    def after(_result: Any) -> None:
        collect(view, started[0], stopped=stopped)

    return _hooks.attach(ip, before, after)


def name_cell_on_engines(view: Any, raw_cell: str, number: int | None) -> None:
    """Tell every engine of ``view`` which notebook cell the ``%%px`` cell about to run is, so
    what the engines draw names ``In[number]`` and its lines; sent before the magic sends the
    code, the engines learn it first. With no engine left nothing is sent; a request that
    cannot be sent is one line on stderr."""
    if not view.client.ids:
        return
    try:
        view.apply_async(cell_files.name_notebook_cell, raw_cell, number)
    except Exception as err:
        print(f"jaxdbg: could not name the cell on the engines: {one_line(err)}", file=sys.stderr)


def _stop_check(client: Any) -> Callable[[], bool]:
    """Whether the cluster that launched the client's engines was stopped since: after
    ``stop_cluster_sync`` the client still lists the engines, though none will answer. Engines
    launched elsewhere (``ipcluster start``, other hosts) are never taken for stopped."""
    cluster = getattr(client, "cluster", None)

    def launched() -> bool:
        return bool(getattr(cluster, "controller", None) or getattr(cluster, "engines", None))

    if not launched():
        return lambda: False
    return lambda: not launched()


def detach() -> None:
    """Stop taking the engines' prints (a no-op when none are attached)."""
    _hooks.detach()


def collect(
    view: Any, cell: int | None, wait: float = WAIT, stopped: Callable[[], bool] = lambda: False
) -> None:
    """Ask every engine of ``view`` for its prints and log them under ``cell``.

    Waits up to ``wait`` seconds; the prints of engines still running a cell arrive later.
    Once the engines are shut down, or ``stopped()`` says their cluster was, there is nothing
    to take; a request that cannot be sent is one line on stderr, never an error in the cell.
    """
    if stopped() or not view.client.ids:
        return
    try:
        pending = view.apply_async(engine.take_prints)
    except Exception as err:
        print(f"jaxdbg: could not take the engines' prints: {one_line(err)}", file=sys.stderr)
        return
    pending.add_done_callback(lambda done: _deliver(done, cell))
    pending.wait(wait)


def _deliver(done: Any, cell: int | None) -> None:
    """Put one answer of every engine into the session log, in order within each engine."""
    try:
        answers = done.get(0)
    except Exception as err:
        print(f"jaxdbg: could not take the engines' prints: {one_line(err)}", file=sys.stderr)
        return
    try:
        log = session_log.session_log()
    except RuntimeError:
        return
    for answer in answers:
        for fields in answer["records"]:
            record = PrintRecord(*fields)
            lineno = cell_files.cell_line(record.filename or "", record.lineno)
            log.add_from(record._replace(lineno=lineno), cell)
    dropped = sum(answer["dropped"] for answer in answers)
    if dropped:
        print(f"jaxdbg: {dropped} engine prints were dropped before the log took them")

"""One breakpoint hit served to its end, and the run it belongs to.

A run is the notebook cell that hit it (outside a kernel, everything until
:meth:`Runs.new_run`); "continue all", quit, an interrupt or an error skip the rest of its
hits. The command history carries from one hit to the next.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets._kernel import parent
from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.core.errors import DebuggerQuit, raise_findable
from jaxdbg_widgets.debugger.serve import post_mortem, shard_serving, stops
from jaxdbg_widgets.debugger.serve.choose import serve
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.single import Session

_OUTSIDE_KERNEL = object()


@dataclass
class Run:
    """The hits of one run so far, and whether the rest are skipped."""

    key: Any
    hits: int = 0
    skip_rest: bool = False


class Runs:
    """The current run and the command history, shared by every thread that hits a breakpoint."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._run: Run | None = None
        self.history: list[str] = []

    def new_run(self) -> None:
        """Start counting breakpoints afresh (and stop skipping them after "continue all")."""
        with self._lock:
            self._run = None

    def current(self) -> Run:
        """The run this request belongs to: the cell's request id, or the one outside a kernel."""
        key = _run_key()
        with self._lock:
            if self._run is None or self._run.key != key:
                self._run = Run(key)
            return self._run

    def count(self, run: Run) -> bool:
        """Count a hit of ``run``; ``False`` when the run skips it."""
        with self._lock:
            run.hits += 1
            return not run.skip_rest

    def skip_rest(self, run: Run) -> None:
        with self._lock:
            run.skip_rest = True


def _run_key() -> Any:
    kernel = running_kernel()
    if kernel is None:
        return _OUTSIDE_KERNEL
    msg_id = parent.request_id(kernel)
    return _OUTSIDE_KERNEL if msg_id is None else msg_id


def serve_hit(
    runs: Runs,
    frames: Sequence[Any],
    thread_id: int | None,
    kwargs: dict[str, Any],
    front_end: Callable[[], FrontEnd],
) -> None:
    """One breakpoint: count it, skip it if the run says so, else serve a session to its end."""
    run = runs.current()
    if not runs.count(run):
        return
    session = _session(frames, thread_id, kwargs, run, runs.history)
    try:
        resume = _serve_one(session, kwargs, run, front_end)
    except KeyboardInterrupt as interrupt:
        runs.skip_rest(run)
        error = KeyboardInterrupt(str(interrupt) or f"interrupted at {session.location}")
        if stops.release(error, thread_id):
            return
        raise_findable(error)
    except BaseException as error:
        runs.skip_rest(run)
        if isinstance(error, DebuggerQuit) and stops.release(error, thread_id):
            return
        raise_findable(error)
    finally:
        session.close()
        runs.history[:] = session.history
    _finish(runs, session, resume, run)


def _session(
    frames: Sequence[Any],
    thread_id: int | None,
    kwargs: dict[str, Any],
    run: Run,
    history: list[str],
) -> Session:
    """The session of one hit, from what the primitive passed the backend."""
    return Session(
        frames,
        thread_id=thread_id,
        batch_size=kwargs.get("batch_size"),
        batch_indices=kwargs.get("batch_indices"),
        batch_total=kwargs.get("batch_total"),
        device=kwargs.get("device"),
        shard=kwargs.get("shard"),
        hit=run.hits,
        stop="post-mortem" if post_mortem.opened() else None,
        history=history,
    )


def _serve_one(
    session: Session, kwargs: dict[str, Any], run: Run, front_end: Callable[[], FrontEnd]
) -> Resume:
    """Serve a single hit, or gather a shard's hit into its run's one shard session."""
    if shard_serving.is_shard_hit(kwargs):
        return shard_serving.serve_hit(
            session, run.key, kwargs["axis_sizes"], lambda shards: serve(shards, front_end())
        )
    return serve(session, front_end())


def _finish(runs: Runs, session: Session, resume: Resume, run: Run) -> None:
    if resume is Resume.CONTINUE_ALL:
        runs.skip_rest(run)
    elif resume is Resume.QUIT:
        runs.skip_rest(run)
        error = DebuggerQuit(
            f"the jaxdbg_widgets debugger was quit at {session.location}; "
            "the computation was stopped"
        )
        if stops.release(error, session.thread_id):
            return
        raise_findable(error)

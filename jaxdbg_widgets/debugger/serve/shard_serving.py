"""Serving the hits of a sharded run as one shard session, from one serving thread.

Each shard's device thread adds its hit to the open :class:`ShardSession` of its run and
breakpoint (the first hit opens it and starts the thread that serves it through the usual
front ends), then waits until its own shard is released. The session lock of
:data:`jaxdbg_widgets.core.breakpoints.sessions` is let go while a shard waits, so the other
shards of the run can arrive. Every shard returns its own answer, so the backend ends each one
by the same rule as a single hit (:mod:`jaxdbg_widgets.debugger.serve.stops`).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from typing import Any

from jaxdbg_widgets.core.breakpoints import sessions
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.shard_gathering import place_of
from jaxdbg_widgets.debugger.session.shards import ShardSession, expected_hits
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.pictures.row import row_pictures

QUIET_SECONDS = 0.2
"""The serving thread waits for every expected shard (each arrival wakes it) before it serves
those present, so a script sees every shard; later ones join as they arrive. A shard that
``breakpoint_if`` skipped sends nothing, so when none has arrived for ``QUIET_SECONDS`` the
serving thread stops waiting for the rest."""

SERVED_SECONDS = 5.0
"""How long a released shard waits for the front end to freeze the session's record before it
returns to the cell anyway (the record is drawn by then; this only bounds a stuck front end)."""

_lock = threading.Lock()
_open: dict[tuple[Any, str], ShardSession] = {}
_closed = threading.Condition(_lock)
"""Notified when a served session leaves :data:`_open`."""


def is_shard_hit(kwargs: dict[str, Any]) -> bool:
    """Whether a hit is one shard of a multi-device run (its breakpoint staged a mesh)."""
    sizes = kwargs.get("axis_sizes")
    return bool(sizes) and (expected_hits(sizes) or 0) > 1


def serve_hit(
    session: Session,
    run_key: Any,
    axis_sizes: Sequence[int],
    serve: Callable[[ShardSession], Resume],
) -> Resume:
    """Gather ``session`` into its run's shard session and wait for this shard's answer.

    ``serve`` answers the whole shard session (widget, typed lines, script, headless); it runs
    on a thread of its own. A quit, or an error that ends the session (an interrupt), is
    returned or raised in one shard's thread only; the others get ``CONTINUE_ALL``, which
    skips the rest of the run, so the cell shows the stop once.
    """
    shards, shard, opened = _join(session, run_key, axis_sizes)
    if opened:
        _start_server(shards, serve)
    with sessions.released():
        try:
            resume = shards.wait(shard)
            if shards.resume is not None:
                shards.served.wait(SERVED_SECONDS)
        except BaseException as error:  # an interrupt on the main thread ends every shard
            shards.end(error)
            shards.claim_stop()
            raise
    if resume is Resume.QUIT or shards.error is not None:
        if not shards.claim_stop():
            return Resume.CONTINUE_ALL  # another shard carries the stop to the cell
        if shards.error is not None:
            raise shards.error
    return resume


def _join(
    session: Session, run_key: Any, axis_sizes: Sequence[int]
) -> tuple[ShardSession, Any, bool]:
    """Add the hit to the open session of its run and location, opening one if needed.

    A shard that hits the same breakpoint again (a loop) waits for the open session to end and
    starts the next one.
    """
    key = (run_key, session.location)
    place = place_of(session)
    while True:
        with _lock:
            shards = _open.get(key)
            if shards is not None and shards.resume is not None and shards.complete:
                del _open[key]
                shards = None
            opened = shards is None
            if shards is None:
                shards = _open[key] = ShardSession(
                    expected=expected_hits(axis_sizes),
                    axis_sizes=axis_sizes,
                    draw_values=row_pictures,
                )
            if not shards.has(place):
                return shards, shards.add(session), opened
        with sessions.released():
            _wait_over(key, shards)


def _wait_over(key: tuple[Any, str], shards: ShardSession) -> None:
    """Wait until ``shards`` is answered and then complete or no longer open under ``key``."""
    shards.wait_resumed()
    with _closed:
        _closed.wait_for(lambda: _open.get(key) is not shards or shards.complete)


def _start_server(shards: ShardSession, serve: Callable[[ShardSession], Resume]) -> None:
    """Serve ``shards`` on a new thread that runs in the first shard's context."""
    context = contextvars.copy_context()

    def run() -> None:
        try:
            shards.wait_for_hits(shards.expected or 1, QUIET_SECONDS)
            serve(shards)
            if shards.resume is None:
                shards.end(RuntimeError("the debugger front end ended without an answer"))
        except BaseException as error:
            shards.end(error)
        finally:
            shards.served.set()
            with _closed:
                for key, open_ in list(_open.items()):
                    if open_ is shards:
                        del _open[key]
                _closed.notify_all()

    thread = threading.Thread(target=context.run, args=(run,), name="jaxdbg-shards", daemon=True)
    thread.start()

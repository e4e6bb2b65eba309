"""Breakpoints on the engines of a ``jaxdbg_widgets.cluster`` job, answered in one notebook widget.

While a notebook cell runs (a ``%%px`` cell, blocked until the engines finish), a watcher
thread asks every engine's desk (:mod:`jaxdbg_widgets.multiprocess.desk`) every
:data:`POLL_SECONDS` which hits it holds. The first hit opens one
:class:`~jaxdbg_widgets.debugger.session.cluster.ClusterSession`, served by the notebook's own
debugger front end (the widget, the typed prompt or the headless policy) on a thread of its
own; later hits of other processes join it as they arrive. Requests and replies cross on each
engine's ipyparallel control channel, whose thread answers while the engine's cell is blocked.
When the cell ends (an interrupt in the notebook, say) with hits still waiting, every engine's
hits are ended at once; an engine that leaves the cluster is named and the others are stopped.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._kernel import ipp_control
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.debugger.session.cluster import ClusterSession
from jaxdbg_widgets.debugger.session.cluster_link import ProcessLost
from jaxdbg_widgets.multiprocess.cell_hooks import CellHooks

REQUEST_TYPE = "jaxdbg_request"
REPLY_TYPE = "jaxdbg_reply"
POLL_SECONDS = 0.05
"""How often the watcher asks the engines for their hits while a cell runs."""
QUIET_SECONDS = 0.2
"""The session opens once every engine holds a hit, or once no other engine has begun to hold
one for this long after the first (processes a predicate skipped never hit), so its first
view, a script's first ``dev``, already lists every process that stopped together."""
ANSWER_SECONDS = 10.0
"""How long an engine may take to answer one request before its answer counts as late."""
GONE_CHECK_SECONDS = 0.1
"""How often a wait for an answer looks whether the engine left the cluster meanwhile."""
ENDED_SECONDS = 5.0
"""How long the end of a cell waits for the session's widget to freeze."""


class EngineLink:
    """Requests to the engines' desks by JAX process index, on ipyparallel's control channel."""

    def __init__(self, client: Any, engines: dict[int, int], timeout: float = ANSWER_SECONDS):
        self.client = client
        self.engines = dict(engines)
        self.timeout = timeout

    def ask(self, process: int, request: dict[str, Any]) -> dict[str, Any]:
        """The desk's reply; raises ProcessLost when the engine left the cluster, TimeoutError
        when its answer is late (a loaded machine: the request still reaches it)."""
        engine = self.engines[process]
        self._check_present(engine)
        try:
            replies = ipp_control.send(self.client, engine, REQUEST_TYPE, request)
        except Exception as err:
            raise ProcessLost(f"engine {engine}: {one_line(err)}") from None
        return self._reply(engine, replies, time.monotonic() + self.timeout)

    def _reply(self, engine: int, replies: Any, deadline: float) -> dict[str, Any]:
        """The answer, waited for in short slices: a dead engine never answers, so between
        slices the wait looks whether the engine left the cluster."""
        while True:
            wait = max(0.0, min(GONE_CHECK_SECONDS, deadline - time.monotonic()))
            try:
                return replies.result(wait)[0]["content"]
            except TimeoutError:
                self._check_present(engine)
                if time.monotonic() >= deadline:
                    raise TimeoutError(
                        f"engine {engine} did not answer within {self.timeout:g} s"
                    ) from None
            except Exception as err:
                raise ProcessLost(f"engine {engine}: {one_line(err)}") from None

    def _check_present(self, engine: int) -> None:
        if engine not in self.client.ids:
            raise ProcessLost(f"engine {engine} left the cluster")


class Watcher:
    """Polls the engines while one notebook cell runs and serves their hits as one session."""

    def __init__(self, link: EngineLink, serve: Callable[[ClusterSession], Any]) -> None:
        self.link = link
        self.serve = serve
        self.session: ClusterSession | None = None
        self._server: threading.Thread | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._first: tuple[int, float] | None = None
        """How many engines held hits at the last poll before the session opened, and when."""

    def start(self) -> None:
        """Watch on a thread that runs in the calling cell's context (its output parent)."""
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run, args=(self._watch,), name="jaxdbg-engines", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """The cell ended: end any hits still waiting on every engine, then stop watching."""
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(ANSWER_SECONDS)
        session = self.session
        if session is not None and session.resume is None:
            session.end(KeyboardInterrupt("the notebook cell ended (interrupted) at a breakpoint"))
        if self._server is not None:
            self._server.join(ENDED_SECONDS)

    def _watch(self) -> None:
        while not self._stopped.wait(POLL_SECONDS):
            if not self.link.client.outstanding and self.session is None:
                continue
            try:
                self.poll()
            except Exception as err:  # a watcher that stops would leave the engines waiting
                print(
                    f"jaxdbg: could not ask the engines for breakpoints: {one_line(err)}",
                    file=sys.stderr,
                )

    def poll(self) -> None:
        """Ask every engine once; open, feed or close the session by what they hold."""
        states: dict[int, dict[str, Any] | str] = {}
        for process in self.link.engines:
            try:
                states[process] = self.link.ask(process, {"op": "state"})
            except ProcessLost as lost:
                states[process] = str(lost)
            except TimeoutError:
                continue  # a late answer is no news: ask again at the next poll
        session = self.session
        if session is not None and session.resume is not None:
            session = self.session = None if self._server_done() else session
        holding = {
            p: s["hits"][0] for p, s in states.items() if isinstance(s, dict) and s.get("hits")
        }
        if session is None:
            if not holding or not self._settled(len(holding)):
                return
            session = self.session = ClusterSession(self.link)
            for process, summary in holding.items():
                session.arrive(process, summary)
            self._start_server(session)
            return
        if session.resume is not None:
            return
        for process, state in states.items():
            if isinstance(state, str):
                session.lost(process, state)
            elif process in holding:
                session.arrive(process, holding[process])
            else:
                session.released(process)

    def _settled(self, holding: int) -> bool:
        """Whether the hits seen now are all that will come together: every engine holds
        one, or none has joined them for :data:`QUIET_SECONDS`."""
        if holding == len(self.link.engines):
            self._first = None
            return True
        now = time.monotonic()
        if self._first is None or self._first[0] != holding:
            self._first = (holding, now)
            return False
        if now - self._first[1] < QUIET_SECONDS:
            return False
        self._first = None
        return True

    def _server_done(self) -> bool:
        return self._server is None or not self._server.is_alive()

    def _start_server(self, session: ClusterSession) -> None:
        context = contextvars.copy_context()

        def run() -> None:
            try:
                self.serve(session)
            except BaseException as err:  # the front end failed: release every engine
                print(f"jaxdbg: {one_line(err)}", flush=True)
                if session.resume is None:
                    session.end(err)

        self._server = threading.Thread(
            target=context.run, args=(run,), name="jaxdbg-job", daemon=True
        )
        self._server.start()


_hooks = CellHooks()


def attach(ip: Any, client: Any, engines: dict[int, int]) -> Callable[[], None]:
    """Watch ``engines`` (JAX process index to engine id) for hits during every cell; the undo."""
    from jaxdbg_widgets.debugger.serve.choose import serve_gathered

    _hooks.detach()
    link = EngineLink(client, engines)
    current: list[Watcher | None] = [None]

    def before(_info: Any) -> None:
        watcher = current[0] = Watcher(link, serve_gathered)
        watcher.start()

    def after(_result: Any) -> None:
        watcher, current[0] = current[0], None
        if watcher is not None:
            watcher.stop()

    def stop() -> None:
        if current[0] is not None:
            current[0].stop()

    return _hooks.attach(ip, before, after, stop)

"""Hits served by a front end in another process: the engines of a ``jaxdbg_widgets.cluster``.

An ipyparallel engine has no front end of its own. With a relay set, the backend hands each of
its hits (one hit, or the gathered shards of its devices) to the relay, which holds it until
the notebook that drives every engine answers it (:mod:`jaxdbg_widgets.multiprocess.desk`).
A ``%jaxdbg script`` active on the engine still answers first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.debugger.session.base import Resume

Server = Callable[[Any], Resume]
"""Serves one session (a hit or a shard session) to its end and returns how it ended."""

_lock = threading.Lock()
_server: Server | None = None


def current() -> Server | None:
    """The relay serving this process's hits, or ``None`` when its own front ends do."""
    with _lock:
        return _server


def set_server(server: Server) -> Callable[[], None]:
    """Serve this process's hits through ``server``; returns the undo."""
    global _server
    with _lock:
        previous, _server = _server, server

    def undo() -> None:
        global _server
        with _lock:
            if _server is server:
                _server = previous

    return undo

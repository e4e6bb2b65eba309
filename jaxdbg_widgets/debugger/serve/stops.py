"""How a quit or an interrupt at a breakpoint ends its run without leaving a device behind.

On the main thread the error is raised in the breakpoint itself, as before. On an XLA worker
thread the breakpoint is one shard of a multi-device run, and the other shards may already wait
in a collective (``psum``, the sum of a sharded result); a shard that fails there leaves them
waiting until XLA aborts the process. So the rule on a worker thread is: this shard and every
later hit of the run are released (the run's breakpoints are skipped), the computation runs to
its end with its unchanged values, and the error reaches the main thread once, when it runs
Python again. An interrupt gets there by itself (SIGINT always raises on the main thread); a
quit is raised there by :func:`release`. The cell then shows it in one line
(:func:`take_shown`).
"""

from __future__ import annotations

import threading

from jaxdbg_widgets._kernel import threads
from jaxdbg_widgets.core.errors import DebuggerQuit

_lock = threading.Lock()
_pending: BaseException | None = None


def _after_run(message: str) -> type[DebuggerQuit]:
    """A ``DebuggerQuit`` class that carries ``message`` when raised without arguments."""

    def __init__(self: DebuggerQuit, *args: object) -> None:
        DebuggerQuit.__init__(self, message)

    return type("DebuggerQuit", (DebuggerQuit,), {"__init__": __init__, "__module__": __name__})


def release(error: BaseException, thread_id: int | None) -> bool:
    """Whether the breakpoint on ``thread_id`` returns instead of raising ``error``.

    ``False`` on the main thread (``thread_id is None``): raise there. On a worker thread the
    error is kept for the cell's one-line display and, for a quit, raised on the main thread.
    """
    global _pending
    if thread_id is None:
        return False
    main = threading.main_thread()
    if isinstance(error, DebuggerQuit):
        if main.ident is None or not main.is_alive():
            return False
        message = f"{error} once every shard of the run had reached its end"
        error = DebuggerQuit(message)
        if not threads.raise_in(main.ident, _after_run(message)):
            return False
    with _lock:
        _pending = error
    return True


def take_shown(value: BaseException) -> BaseException | None:
    """The error to show in one line for ``value`` if it ends a released run, else ``None``."""
    global _pending
    if not isinstance(value, (DebuggerQuit, KeyboardInterrupt)):
        return None
    with _lock:
        pending, _pending = _pending, None
    if isinstance(value, DebuggerQuit):
        return value
    return pending if isinstance(pending, KeyboardInterrupt) else None

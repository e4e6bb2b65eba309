"""Pre-scripted answers for breakpoints, so notebooks with breakpoints run unattended and identically.

``with script(["p x", "u", "pp y", "c"]):`` answers the breakpoints hit inside the block with
those commands, in order, across breakpoints; ``%jaxdbg script p x; c`` queues commands for the
next breakpoints until they are used up. A breakpoint that finds no command left continues.

A ``with script`` block belongs to the thread that opened it: threads each inside their own
block answer only their own breakpoints. A breakpoint on an XLA worker thread (a shard of a
multi-device computation, which opens no block itself) is answered by the main thread's block,
where notebook cells and scripts run. The shards of a run are answered as one shard session,
once every shard has arrived, so ``dev N``, ``compare EXPR`` and ``c N`` see them all.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxdbg_widgets.debugger.widget.static_html import FrozenView

_lock = threading.Lock()
_scoped: dict[int, list[Script]] = {}
"""Each thread's open ``with script`` blocks, innermost last."""
_queued: Script | None = None
_unwound: dict[int, tuple[BaseException, Script]] = {}


class Script:
    """Commands waiting to be typed at the next breakpoints, consumed one at a time.

    With ``keep_records``, :attr:`records` holds each answered breakpoint's frozen record,
    the read-only output a widget session leaves in a saved notebook (static HTML and a
    line of text), which shows what the printed transcript cannot: a compare's pictures.
    """

    def __init__(self, commands: Iterable[str], *, keep_records: bool = False) -> None:
        self._pending: deque[str] = deque(parse_commands(commands))
        self.keep_records = keep_records
        self.records: list[FrozenView] = []

    @property
    def remaining(self) -> list[str]:
        """Commands not used yet."""
        with _lock:
            return list(self._pending)

    def next_command(self) -> str | None:
        """The next command, or ``None`` when the script is used up."""
        with _lock:
            return self._pending.popleft() if self._pending else None


def parse_commands(commands: str | Iterable[str]) -> list[str]:
    """Commands from a list of strings, or one string separated by ``;`` or newlines."""
    if isinstance(commands, str):
        items = commands.replace("\n", ";").split(";")
    elif isinstance(commands, Iterable):
        items = list(commands)
        for item in items:
            if not isinstance(item, str):
                raise TypeError(f"script commands must be strings, got {type(item).__name__}")
    else:
        raise TypeError(
            "script commands must be a list of strings or one string separated by ';', "
            f"got {type(commands).__name__}"
        )
    return [item.strip() for item in items if item.strip()]


@contextlib.contextmanager
def script(commands: str | Iterable[str], *, keep_records: bool = False) -> Iterator[Script]:
    """Answer the breakpoints hit inside this block with ``commands`` and print their transcript.

    ``keep_records=True`` also keeps each breakpoint's frozen record in the yielded script's
    ``records``: display one to see the session as a saved notebook keeps it.
    """
    active = Script(commands, keep_records=keep_records)
    _push(active)
    try:
        yield active
    except BaseException as error:
        _remember_unwound(error, active)
        raise
    finally:
        _pop(active)


def _push(active: Script) -> None:
    with _lock:
        _scoped.setdefault(threading.get_ident(), []).append(active)


def _pop(active: Script) -> None:
    thread = threading.get_ident()
    with _lock:
        blocks = _scoped[thread]
        blocks.remove(active)
        if not blocks:
            del _scoped[thread]


def _remember_unwound(error: BaseException, unwound: Script) -> None:
    thread = threading.get_ident()
    with _lock:
        if unwound._pending:
            _unwound[thread] = (error, unwound)
        else:
            _unwound.pop(thread, None)


@contextlib.contextmanager
def resumed_for(error: BaseException) -> Iterator[None]:
    """Let the script whose block ``error`` left answer again, for a post-mortem on ``error``."""
    with _lock:
        unwound = _unwound.pop(threading.get_ident(), None)
    if unwound is None or unwound[0] is not error:
        yield
        return
    _push(unwound[1])
    try:
        yield
    finally:
        _pop(unwound[1])


def queue(commands: str | Iterable[str]) -> Script:
    """Answer the next breakpoints with ``commands`` (replacing any queued before)."""
    global _queued
    queued = Script(commands)
    with _lock:
        _queued = queued
    return queued


def clear_queue() -> None:
    """Drop queued commands; breakpoints are answered interactively again."""
    global _queued
    with _lock:
        _queued = None


def queued() -> Script | None:
    """The queued script, if it still has commands."""
    with _lock:
        return _queued if _queued is not None and _queued._pending else None


def active() -> Script | None:
    """The script answering a breakpoint on this thread: its innermost ``with script(...)``
    (the main thread's on a thread with none), else the queue."""
    with _lock:
        blocks = _scoped.get(threading.get_ident()) or _scoped.get(threading.main_thread().ident)
        if blocks:
            return blocks[-1]
    return queued()

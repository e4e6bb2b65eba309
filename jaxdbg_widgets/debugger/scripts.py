"""Pre-scripted answers for breakpoints, so notebooks with breakpoints run unattended and identically.

``with script(["p x", "u", "pp y", "c"]):`` answers the breakpoints hit inside the block with
those commands, in order, across breakpoints; ``%jaxdbg script p x; c`` queues commands for the
next breakpoints until they are used up. A breakpoint that finds no command left continues.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Iterable, Iterator

_lock = threading.Lock()
_scoped: list[Script] = []
_queued: Script | None = None
_unwound: tuple[BaseException, Script] | None = None


class Script:
    """Commands waiting to be typed at the next breakpoints, consumed one at a time."""

    def __init__(self, commands: Iterable[str]) -> None:
        self._pending: deque[str] = deque(parse_commands(commands))

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
def script(commands: str | Iterable[str]) -> Iterator[Script]:
    """Answer the breakpoints hit inside this block with ``commands`` and print their transcript."""
    active = Script(commands)
    with _lock:
        _scoped.append(active)
    try:
        yield active
    except BaseException as error:
        _remember_unwound(error, active)
        raise
    finally:
        with _lock:
            _scoped.remove(active)


def _remember_unwound(error: BaseException, unwound: Script) -> None:
    global _unwound
    with _lock:
        _unwound = (error, unwound) if unwound._pending else None


@contextlib.contextmanager
def resumed_for(error: BaseException) -> Iterator[None]:
    """Let the script whose block ``error`` left answer again, for a post-mortem on ``error``."""
    global _unwound
    with _lock:
        script_for_error = _unwound[1] if _unwound and _unwound[0] is error else None
        _unwound = None
    if script_for_error is None:
        yield
        return
    with _lock:
        _scoped.append(script_for_error)
    try:
        yield
    finally:
        with _lock:
            _scoped.remove(script_for_error)


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
    """The script answering the next breakpoint: the innermost ``with script(...)``, else the queue."""
    with _lock:
        if _scoped:
            return _scoped[-1]
    return queued()

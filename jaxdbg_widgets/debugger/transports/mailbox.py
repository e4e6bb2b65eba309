"""A thread-safe FIFO whose waiter can also be woken by an interrupt."""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any


class Mailbox:
    """Items put from any thread are taken in order; ``take`` raises on a kernel interrupt.

    ``wake`` is called after every put, interrupt and close, for a waiter that sleeps
    somewhere other than :meth:`take` (the PUMP tier polls the shell socket).
    """

    def __init__(self, wake: Callable[[], None] = lambda: None) -> None:
        self._wake = wake
        self._items: collections.deque[Any] = collections.deque()
        self._ready = threading.Condition(threading.Lock())
        self._interrupted = False
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def put(self, item: Any) -> None:
        with self._waking():
            self._items.append(item)

    def interrupt(self) -> None:
        """Wake the waiter with ``KeyboardInterrupt`` (called from the interrupt watcher)."""
        with self._waking():
            self._interrupted = True

    def nudge(self) -> None:
        """Wake the waiter to run Python again with nothing to take: a pending signal handler
        then raises there (called from the interrupt watcher for a main-thread waiter)."""
        with self._waking():
            pass

    def close(self) -> None:
        """Wake a waiter with nothing; later takes return nothing at once."""
        with self._waking():
            self._closed = True

    @contextlib.contextmanager
    def _waking(self) -> Iterator[None]:
        """Change the mailbox under its lock, then wake the waiter, wherever it sleeps."""
        with self._ready:
            yield
            self._ready.notify_all()
        self._wake()

    def take(self, timeout: float | None) -> tuple[bool, Any]:
        """``(True, item)`` once one is there, ``(False, None)`` after ``timeout`` seconds or
        once closed; raises ``KeyboardInterrupt`` if :meth:`interrupt` was called."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._ready:
            while True:
                if self._interrupted:
                    self._interrupted = False
                    raise KeyboardInterrupt("interrupted while waiting at a breakpoint")
                if self._items:
                    return True, self._items.popleft()
                remaining = None if deadline is None else deadline - time.monotonic()
                if self._closed or (remaining is not None and remaining <= 0):
                    return False, None
                self._ready.wait(remaining)

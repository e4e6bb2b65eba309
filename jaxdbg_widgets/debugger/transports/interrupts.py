"""Kernel interrupts for breakpoints that wait on an XLA worker thread.

SIGINT only raises ``KeyboardInterrupt`` on the main thread, and only once it runs Python
again; while a worker thread waits at a breakpoint the main thread waits inside XLA. A wakeup
fd (set from the main thread, usually by ``%load_ext jaxdbg``) lets a watcher thread see the
signal at once and tell the waiting worker, which then raises ``KeyboardInterrupt`` itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

_lock = threading.Lock()
_waiters: dict[int, Callable[[], None]] = {}
_keys = itertools.count()
_watcher: _Watcher | None = None


class _Watcher:
    """Owns the wakeup fd while installed; forwards every byte to the fd it replaced."""

    def __init__(self) -> None:
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(True)
        self._writer.setblocking(False)
        self._previous = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._watch, name="jaxdbg-interrupts", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while data := self._reader.recv(64):
            if self._previous != -1:
                with contextlib.suppress(OSError):
                    os.write(self._previous, data)
            if signal.SIGINT in data:
                _notify_waiters()

    def stop(self) -> None:
        signal.set_wakeup_fd(self._previous)
        self._writer.close()
        self._thread.join(timeout=5)
        self._reader.close()


def _notify_waiters() -> None:
    with _lock:
        callbacks = list(_waiters.values())
    for callback in callbacks:
        callback()


def is_watching() -> bool:
    """Whether interrupts can reach breakpoints waiting on worker threads."""
    return _watcher is not None


def install(ip: Any = None) -> Callable[[], None]:
    """Start watching SIGINT (main thread only); the returned undo restores the previous fd."""
    global _watcher
    if _watcher is not None:
        return lambda: None
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("interrupt watching must be installed from the main thread")
    _watcher = _Watcher()

    def undo() -> None:
        global _watcher
        watcher, _watcher = _watcher, None
        if watcher is not None:
            watcher.stop()

    return undo


def add_waiter(callback: Callable[[], None]) -> int | None:
    """Call ``callback`` (from the watcher thread) on SIGINT until removed; returns its key.

    Nothing is registered on the main thread (``None``): SIGINT raises ``KeyboardInterrupt``
    there by itself.
    """
    if threading.current_thread() is threading.main_thread():
        return None
    key = next(_keys)
    with _lock:
        _waiters[key] = callback
    return key


def remove_waiter(key: int | None) -> None:
    if key is not None:
        with _lock:
            _waiters.pop(key, None)


@contextlib.contextmanager
def notify_on_interrupt(callback: Callable[[], None]) -> Iterator[None]:
    """Call ``callback`` if SIGINT arrives while this worker thread is inside the block."""
    key = add_waiter(callback)
    try:
        yield
    finally:
        remove_waiter(key)


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None
    )


@contextlib.contextmanager
def raising_on_interrupt() -> Iterator[None]:
    """Raise ``KeyboardInterrupt`` in this worker thread if SIGINT arrives inside the block.

    For waits inside code we do not own that loop in Python (ipykernel's stdin polling).
    """
    thread_id = threading.get_ident()
    state = {"armed": True}

    def interrupt() -> None:
        with _lock:
            if state["armed"]:
                _set_async_exc(thread_id, KeyboardInterrupt)

    with notify_on_interrupt(interrupt):
        try:
            yield
        finally:
            with _lock:
                state["armed"] = False
                _set_async_exc(thread_id, None)

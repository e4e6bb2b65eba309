"""Kernel interrupts for breakpoints that wait on an XLA worker thread.

SIGINT only raises ``KeyboardInterrupt`` on the main thread, and only once it runs Python
again; while a worker thread waits at a breakpoint the main thread waits inside XLA. A wakeup
fd (set from the main thread, usually by ``%load_ext jaxdbg``) lets a watcher thread see the
signal at once and tell the waiting worker, which then raises ``KeyboardInterrupt`` itself.
The wakeup fd and the asynchronous exceptions are the kernel adapter's
(:mod:`jaxdbg_widgets._kernel.signals`, :mod:`jaxdbg_widgets._kernel.threads`).
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from jaxdbg_widgets._kernel import signals, threads

T = TypeVar("T")

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
        self._previous = signals.replace_wakeup_fd(self._writer.fileno())
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
        signals.restore_wakeup_fd(self._previous)
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


def add_waiter(
    callback: Callable[[], None], main_thread_wake: Callable[[], None] | None = None
) -> int | None:
    """Call ``callback`` (from the watcher thread) on SIGINT until removed; returns its key.

    On the main thread SIGINT raises ``KeyboardInterrupt`` by itself once it runs Python, so
    only ``main_thread_wake`` is registered there (``None`` without it): a signal whose C
    handler ran on another thread leaves the main thread asleep until something wakes it.
    """
    if threading.current_thread() is threading.main_thread():
        callback = main_thread_wake
        if callback is None:
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
                threads.raise_in(thread_id, KeyboardInterrupt)

    with notify_on_interrupt(interrupt):
        try:
            yield
        finally:
            with _lock:
                state["armed"] = False
                threads.absorb_pending(KeyboardInterrupt)


def call_interruptibly(function: Callable[[], T]) -> T:
    """``function()``, which a kernel interrupt stops at once even on a worker thread.

    On the main thread SIGINT interrupts it by itself. On a worker thread (while interrupts are
    watched) it runs on a helper thread of its own, in this thread's context, while this thread
    waits: an interrupt raises ``KeyboardInterrupt`` here at once, and in the helper when it
    next runs Python. A helper stuck in C (``time.sleep``) is left to finish on its own; it
    holds nothing this thread needs.
    """
    if threading.current_thread() is threading.main_thread() or not is_watching():
        return function()
    if not threads.available():
        return function()
    call = _Call(function)
    with notify_on_interrupt(call.interrupt):  # before the helper starts: no interrupt is lost
        call.start()
        return call.result()


class _Call:
    """One call on a helper thread, and the wait for it that an interrupt ends."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self._function = function
        self._done = threading.Condition(threading.Lock())
        self._finished = False
        self._interrupted = False
        self._outcome: tuple[bool, Any] = (False, None)
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run, args=(self._run,), name="jaxdbg-evaluate", daemon=True
        )

    def start(self) -> None:
        """Start the helper, unless an interrupt already ended the call."""
        with self._done:
            if not self._interrupted:
                self._thread.start()

    def _run(self) -> None:
        try:
            try:
                outcome: tuple[bool, Any] = (True, self._function())
            except BaseException as error:
                outcome = (False, error)
            with self._done:
                self._outcome, self._finished = outcome, True
                self._done.notify_all()
                threads.absorb_pending(KeyboardInterrupt)
        except BaseException:  # an interrupt that arrived as the call ended: it is over anyway
            pass

    def interrupt(self) -> None:
        """Stop waiting with ``KeyboardInterrupt``; the helper raises it when it runs Python."""
        with self._done:
            if self._finished:
                return
            self._interrupted = True
            if self._thread.ident is not None:
                threads.raise_in(self._thread.ident, KeyboardInterrupt)
            self._done.notify_all()

    def result(self) -> Any:
        with self._done:
            while not self._finished and not self._interrupted:
                self._done.wait()
            if not self._finished:
                raise KeyboardInterrupt("interrupted while evaluating at a breakpoint")
            ok, value = self._outcome
        if ok:
            return value
        raise value

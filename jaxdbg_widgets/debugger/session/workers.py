"""Short, stable names for the threads that reach breakpoints: ``main thread``, ``worker 3``.

A raw thread id (``140127116449472``) says nothing to a reader and changes every run. Worker
threads are numbered 1, 2, ... in the order they first reach a breakpoint in this process, so
the same thread keeps its number for as long as the process lives.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_numbers: dict[int, int] = {}


def thread_name(thread_id: int | None) -> str:
    """``main thread`` for ``None`` (JAX's convention), else ``worker N`` for that thread."""
    if thread_id is None:
        return "main thread"
    with _lock:
        number = _numbers.setdefault(thread_id, len(_numbers) + 1)
    return f"worker {number}"

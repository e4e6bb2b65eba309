"""Keeps a shown print log's saved output current: when a cell ends with new prints (or a
cleared log), every output showing that log is rewritten with its newest rows.

Only the output's text and HTML change: the page keeps drawing over the same live table, so the
rewrite is what a save, a restart or a reload finds, not something the user watches.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from jaxdbg_widgets._kernel.shell import running_shell

_lock = threading.Lock()
_followed: weakref.WeakKeyDictionary[Any, _Outputs] = weakref.WeakKeyDictionary()


class _Outputs:
    """The display handles showing one log, and the log's state when they were last written."""

    def __init__(self, log: Any) -> None:
        self.handles: list[Any] = []
        self.written = _state(log)


def _state(log: Any) -> tuple[int, int]:
    return log.seen, len(log)


def follow(log: Any, handle: Any) -> None:
    """Rewrite ``handle``'s output with ``log``'s newest rows whenever a cell changed the log."""
    if handle is None:
        return
    with _lock:
        outputs = _followed.setdefault(log, _Outputs(log))
        outputs.handles.append(handle)
        outputs.written = _state(log)
    shell = running_shell()
    if shell is not None and _rewrite not in shell.events.callbacks["post_run_cell"]:
        shell.events.register("post_run_cell", _rewrite)


def _rewrite(*_result: Any) -> None:
    """After a cell: rewrite the outputs of every followed log that changed."""
    with _lock:
        changed = [(log, out) for log, out in _followed.items() if _state(log) != out.written]
        for log, outputs in changed:
            outputs.written = _state(log)
    for log, outputs in changed:
        bundle = log.standalone()._repr_mimebundle_()
        for handle in outputs.handles:
            handle.update(bundle, raw=True)


def unfollow_all() -> None:
    """Stop rewriting (the extension unloads)."""
    with _lock:
        _followed.clear()
    shell = running_shell()
    if shell is not None and _rewrite in shell.events.callbacks["post_run_cell"]:
        shell.events.unregister("post_run_cell", _rewrite)

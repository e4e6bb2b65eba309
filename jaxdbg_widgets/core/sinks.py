"""Print sinks: listeners that receive every ``jaxdbg_widgets.print`` as a ``PrintRecord``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from jaxdbg_widgets.core.formatting import summarize

logger = logging.getLogger("jaxdbg_widgets")


Summaries = tuple[tuple[str, str], ...]


class PrintRecord(NamedTuple):
    """One printed line with where it came from and short summaries of its values.

    ``printed`` holds ``(name, summary)`` pairs; or, when ``names`` is given, the printed values
    themselves, summarized only when ``values`` is read, so a print whose log is never looked
    at does not pay for them. A record holds only strings, numbers and small arrays, so the
    garbage collector need not track the records a log keeps. ``process`` is the JAX process
    index in a multi-process job, ``None`` in a single process.
    """

    text: str
    filename: str
    lineno: int
    function: str
    timestamp: float
    printed: tuple[Any, ...]
    thread_id: int | None
    names: tuple[str, ...] | None = None
    process: int | None = None

    @property
    def values(self) -> Summaries:
        """``(name, summary)`` for each printed value, e.g. ``("x", "f32[3] min=0 max=2")``."""
        if self.names is None:
            return self.printed
        return tuple(
            (name, summarize(value)) for name, value in zip(self.names, self.printed, strict=True)
        )


Sink = Callable[[PrintRecord], None]

_sinks: tuple[Sink, ...] = ()
_lock = threading.Lock()


def add_print_sink(sink: Sink) -> Callable[[], None]:
    """Register ``sink`` for every printed record; return a function that removes it."""
    global _sinks
    if not callable(sink):
        raise TypeError(f"a print sink must be callable, but got {type(sink).__name__}")
    with _lock:
        _sinks = (*_sinks, sink)

    def remove() -> None:
        global _sinks
        with _lock:
            if sink in _sinks:
                kept = list(_sinks)
                kept.remove(sink)
                _sinks = tuple(kept)

    return remove


def has_sinks() -> bool:
    """Whether anyone listens, so records are only built when they will be used."""
    return bool(_sinks)


def emit(record: PrintRecord) -> None:
    """Hand ``record`` to every sink; a failing sink is logged and never stops printing."""
    for sink in _sinks:
        try:
            sink(record)
        except Exception:
            logger.warning("a jaxdbg_widgets print sink raised", exc_info=True)

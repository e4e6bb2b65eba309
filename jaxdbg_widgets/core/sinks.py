"""Print sinks: listeners that receive every ``jaxdbg_widgets.print`` as a ``PrintRecord``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger("jaxdbg_widgets")


@dataclass(frozen=True)
class PrintRecord:
    """One printed line with where it came from and short summaries of its values."""

    text: str
    filename: str
    lineno: int
    function: str
    timestamp: float
    values: tuple[tuple[str, str], ...]
    thread_id: int | None


Sink = Callable[[PrintRecord], None]

_sinks: list[Sink] = []
_lock = threading.Lock()


def add_print_sink(sink: Sink) -> Callable[[], None]:
    """Register ``sink`` for every printed record; return a function that removes it."""
    if not callable(sink):
        raise TypeError(f"a print sink must be callable, but got {type(sink).__name__}")
    with _lock:
        _sinks.append(sink)

    def remove() -> None:
        with _lock:
            if sink in _sinks:
                _sinks.remove(sink)

    return remove


def has_sinks() -> bool:
    """Whether anyone listens, so records are only built when they will be used."""
    return bool(_sinks)


def emit(record: PrintRecord) -> None:
    """Hand ``record`` to every sink; a failing sink is logged and never stops printing."""
    with _lock:
        sinks = list(_sinks)
    for sink in sinks:
        try:
            sink(record)
        except Exception:
            logger.warning("a jaxdbg_widgets print sink raised", exc_info=True)

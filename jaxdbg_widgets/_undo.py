"""Undo helpers for the installers: put a mapping's entry back as it was, release once."""

from __future__ import annotations

import threading
from collections.abc import Callable, MutableMapping
from typing import Any

_ABSENT = object()


def put_entry(mapping: MutableMapping[Any, Any], key: Any, value: Any) -> Callable[[], None]:
    """Set ``mapping[key] = value``; the undo restores the entry it replaced, or removes the
    key where there was none."""
    previous = mapping.get(key, _ABSENT)
    mapping[key] = value

    def undo() -> None:
        if previous is _ABSENT:
            mapping.pop(key, None)
        else:
            mapping[key] = previous

    return undo


def once(action: Callable[[], None]) -> Callable[[], None]:
    """``action`` as a callable that runs it on the first call only, from any thread."""
    first = threading.Lock()

    def call() -> None:
        if first.acquire(blocking=False):  # never released: only the first call gets it
            action()

    return call

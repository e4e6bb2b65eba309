"""Building thousands of small acyclic objects without paying for cyclic garbage collection.

Each layout or view of a large mesh allocates tens of thousands of tuples and dicts; with JAX
loaded every full collection walks the whole heap, which can triple the build time. The
structures built here hold no reference cycles, so pausing the collector while building them
loses nothing; it is resumed (if it was on) as soon as the build ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the duration of the block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

"""One pair of hooks around every notebook cell, attached once per module, with its undo.

The engines' print collector and breakpoint watcher each run something before and after every
cell; attaching to a new cluster replaces the pair attached for the last one, so no cell runs
the hooks of a cluster that is gone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class CellHooks:
    """At most one ``pre_run_cell``/``post_run_cell`` pair at a time; attaching replaces it."""

    def __init__(self) -> None:
        self._detach: Callable[[], None] | None = None

    def attach(
        self,
        ip: Any,
        before: Callable[[Any], None],
        after: Callable[[Any], None],
        stop: Callable[[], None] = lambda: None,
    ) -> Callable[[], None]:
        """Run ``before`` and ``after`` around every cell in place of the earlier pair; the undo
        unregisters them, then calls ``stop``."""
        self.detach()
        ip.events.register("pre_run_cell", before)
        ip.events.register("post_run_cell", after)

        def detach() -> None:
            ip.events.unregister("post_run_cell", after)
            ip.events.unregister("pre_run_cell", before)
            stop()
            if self._detach is detach:
                self._detach = None

        self._detach = detach
        return detach

    def detach(self) -> None:
        """Unregister the pair attached last (a no-op when none is)."""
        if self._detach is not None:
            self._detach()

"""SUBSHELL tier (ipykernel >= 7.4): route one widget's comm messages to a kernel subshell.

The shell-channel thread asks each comm where its incoming ``comm_msg`` should go; answering
with our subshell makes the message run on that subshell's thread while the main thread (or
an XLA worker) is blocked at the breakpoint. While any inbox is open, what a reloaded page (or
a second tab) sends to get its widgets back goes to the same subshell, so the debugger widget
comes back with its state. The kernel adapter does the asking, creating and re-addressing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._kernel import restore, subshells
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.inbox import Inbox

_lock = threading.Lock()
_subshells: dict[int, str] = {}
_log = logging.getLogger(__name__)


def debugger_subshell(kernel: Any) -> str:
    """The id of this kernel's debugger subshell, created on first use and then reused."""
    with _lock:
        subshell_id = _subshells.get(id(kernel))
        if subshell_id is None or not subshells.subshell_exists(kernel, subshell_id):
            subshell_id = subshells.create_subshell(kernel)
            _subshells[id(kernel)] = subshell_id
        return subshell_id


class _RestoreRouting:
    """Widget-restoring traffic goes to the debugger subshell while any inbox is open."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._undo: Callable[[], None] | None = None

    def acquire(self, cell: CellParent, subshell_id: str) -> None:
        """Count one more waiting inbox; the first one turns the routing on."""
        with self._lock:
            self._users += 1
            if self._users == 1 and capability.widget_restore_available():
                self._undo = _start_routing(cell, subshell_id)

    def release(self) -> None:
        """Count one inbox fewer; the last one puts the kernel's routing back."""
        with self._lock:
            self._users -= 1
            undo, self._undo = (self._undo, None) if self._users == 0 else (None, self._undo)
        if undo is not None:
            _stop_routing(undo)


def _start_routing(cell: CellParent, subshell_id: str) -> Callable[[], None] | None:
    """Turn restore routing on; ``None`` (and today's behaviour) when the kernel refuses."""
    try:
        return restore.route_widget_restore(cell.kernel, subshell_id, cell.restore)
    except Exception:
        _log.warning("jaxdbg: a reloaded page will not get the debugger back", exc_info=True)
        return None


def _stop_routing(undo: Callable[[], None]) -> None:
    try:
        undo()
    except Exception:
        _log.warning("jaxdbg: could not put the kernel's shell routing back", exc_info=True)


_restore_routing = _RestoreRouting()


class SubshellInbox(Inbox):
    """Messages for this comm are handled on the debugger subshell and queued for ``get``."""

    tier = Tier.SUBSHELL

    def __init__(self, comm: Any, cell: CellParent) -> None:
        subshell_id = debugger_subshell(cell.kernel)
        super().__init__(comm, cell)
        self._unroute = subshells.route_comm(comm, subshell_id)
        _restore_routing.acquire(cell, subshell_id)

    def close(self) -> None:
        """Stop routing this comm, and the restore traffic once no other inbox waits."""
        unroute, self._unroute = getattr(self, "_unroute", None), None
        if unroute is not None:
            unroute()
        super().close()
        if unroute is not None:
            _restore_routing.release()

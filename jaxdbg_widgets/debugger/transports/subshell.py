"""SUBSHELL tier (ipykernel >= 7.4): route one widget's comm messages to a kernel subshell.

The shell-channel thread asks each comm where its incoming ``comm_msg`` should go; answering
with our subshell makes the message run on that subshell's thread while the main thread (or
an XLA worker) is blocked at the breakpoint. The kernel adapter does the asking and creating.
"""

from __future__ import annotations

import threading
from typing import Any

from jaxdbg_widgets import _kernel_internals
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.inbox import Inbox

_lock = threading.Lock()
_subshells: dict[int, str] = {}


def debugger_subshell(kernel: Any) -> str:
    """The id of this kernel's debugger subshell, created on first use and then reused."""
    with _lock:
        subshell_id = _subshells.get(id(kernel))
        if subshell_id is None or not _kernel_internals.subshell_exists(kernel, subshell_id):
            subshell_id = _kernel_internals.create_subshell(kernel)
            _subshells[id(kernel)] = subshell_id
        return subshell_id


class SubshellInbox(Inbox):
    """Messages for this comm are handled on the debugger subshell and queued for ``get``."""

    tier = Tier.SUBSHELL

    def __init__(self, comm: Any, cell: CellParent) -> None:
        subshell_id = debugger_subshell(cell.kernel)
        super().__init__(comm, cell)
        self._override(*_kernel_internals.subshell_router(subshell_id))

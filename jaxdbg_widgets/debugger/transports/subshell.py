"""SUBSHELL tier (ipykernel >= 7.4): route one widget's comm messages to a kernel subshell.

The shell-channel thread asks each comm where its incoming ``comm_msg`` should go
(``_reply_subshell_for``); answering with our subshell makes the message run on that
subshell's thread while the main thread (or an XLA worker) is blocked at the breakpoint.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.inbox import Inbox

T = TypeVar("T")
CREATE_TIMEOUT = 10.0

_lock = threading.Lock()
_subshells: dict[int, str] = {}


def _on_shell_channel_thread(kernel: Any, fn: Callable[[], T]) -> T:
    """Run ``fn`` on the shell-channel thread (where the subshell manager must be used)."""
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(fn())
        except BaseException as err:
            done.set_exception(err)

    kernel.shell_channel_thread.io_loop.add_callback(run)
    return done.result(timeout=CREATE_TIMEOUT)


def debugger_subshell(kernel: Any) -> str:
    """The id of this kernel's debugger subshell, created on first use and then reused."""
    manager = kernel.shell_channel_thread.manager
    with _lock:
        subshell_id = _subshells.get(id(kernel))
        if subshell_id is None or subshell_id not in manager.list_subshell():
            subshell_id = _on_shell_channel_thread(kernel, manager._create_subshell)
            _subshells[id(kernel)] = subshell_id
        return subshell_id


class SubshellInbox(Inbox):
    """Messages for this comm are handled on the debugger subshell and queued for ``get``."""

    tier = Tier.SUBSHELL

    def __init__(self, comm: Any, cell: CellParent) -> None:
        subshell_id = debugger_subshell(cell.kernel)
        super().__init__(comm, cell)
        self._override("_reply_subshell_for", lambda data, default: subshell_id)

"""PUMP tier (ipykernel 6): the blocked thread reads the shell channel itself.

While a cell runs, ipykernel 6's main loop waits for the running handler, so nobody else reads
the shell stream: the blocked breakpoint may. Each step moves the stream's messages out of the
kernel's queue, handles the ``comm_msg``/``comm_close`` messages of the inbox's comm with the
kernel's own handlers and puts every other message back, in order, for the main loop to
handle after the cell. What a reloaded page (or a second tab) sends to get its widgets back is
handled too, so the debugger widget comes back while it waits. A message that cannot be parsed
is logged and put back; after :data:`MAX_PARSE_FAILURES` in a row the pump gives up
(:class:`NoTransport`), so the breakpoint falls back to the typed prompt instead of silently
losing clicks.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any

from jaxdbg_widgets import _kernel_internals
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.inbox import Inbox, NoTransport

STEP_SECONDS = 0.005
MAX_PARSE_FAILURES = 3
_pump_lock = threading.Lock()
_controls: set[str] = set()  # widget control comms opened while pumping; under _pump_lock
_log = logging.getLogger(__name__)


class PumpInbox(Inbox):
    """``get`` pumps the shell channel between short waits on the mailbox."""

    tier = Tier.PUMP

    _failures = 0

    def __init__(self, comm: Any, cell: Any) -> None:
        super().__init__(comm, cell)
        self._restoring = capability.widget_restore_available(cell.kernel)

    def _wait(self, timeout: float | None) -> Any | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._pump()
            remaining = None if deadline is None else deadline - time.monotonic()
            step = STEP_SECONDS if remaining is None else max(0.0, min(STEP_SECONDS, remaining))
            found, item = self._mailbox.take(step)
            if found or (remaining is not None and remaining <= 0) or self._mailbox.closed:
                return item

    def _pump(self) -> None:
        """Handle this comm's queued messages; an interrupt midway loses no other message."""
        kernel = self._cell.kernel
        with _pump_lock:
            waiting = collections.deque(_kernel_internals.take_shell_messages(kernel))
            try:
                while waiting:
                    entry = waiting.popleft()
                    if self._is_mine(entry):
                        self._dispatch(entry)
                    else:
                        _kernel_internals.put_back_shell_message(kernel, entry)
            finally:
                for entry in waiting:
                    _kernel_internals.put_back_shell_message(kernel, entry)
        if self._failures >= MAX_PARSE_FAILURES:
            reason = f"{self._failures} shell messages in a row could not be parsed"
            _kernel_internals.turn_off(
                "ipykernel", "shell-pump", _kernel_internals.FEATURE_PUMP, reason
            )
            raise NoTransport(f"shell pumping stopped: {reason}; see the kernel log")

    def _dispatch(self, entry: Any) -> None:
        """Run the kernel's own handler for one message, then give the cell its parent."""
        try:
            _kernel_internals.handle_comm_message(self._cell.kernel, entry)
        except Exception:
            _log.exception("jaxdbg: a widget message could not be handled at a breakpoint")
        finally:
            self._cell.restore()

    def _is_mine(self, entry: Any) -> bool:
        """Whether a queued message is for this inbox's comm, or restores a reloaded page."""
        try:
            msg_type, comm_id = _kernel_internals.comm_target(self._cell.kernel, entry)
            mine = comm_id == self.comm_id or self._restores(entry, msg_type)
        except Exception:
            self._failures += 1
            _log.warning(
                "jaxdbg: could not parse a shell message while pumping (%d in a row)",
                self._failures,
                exc_info=True,
            )
            return False
        if msg_type:  # a parsed message, not a callback the kernel queued for itself
            self._failures = 0
        return mine

    def _restores(self, entry: Any, msg_type: str) -> bool:
        """Whether a parsed queued message is a reloaded page asking for its widgets back."""
        if not msg_type or not self._restoring:
            return False
        return _kernel_internals.queued_restore_request(self._cell.kernel, entry, _controls)

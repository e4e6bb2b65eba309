"""PUMP tier (ipykernel 6): the blocked thread reads the shell channel itself.

While a cell runs, ipykernel 6's main loop waits for the running handler, so nobody else reads
the shell stream: the blocked breakpoint may. Each step moves the stream's messages out of the
kernel's queue, handles the ``comm_msg``/``comm_close`` messages of the inbox's comm with the
kernel's own handlers and puts every other message back, in order, for the main loop to
handle after the cell. What a reloaded page (or a second tab) sends to get its widgets back is
handled too, so the debugger widget comes back while it waits. A message that cannot be parsed
is logged and put back; after :data:`MAX_PARSE_FAILURES` in a row the pump gives up
(:class:`NoTransport`), so the breakpoint falls back to the typed prompt instead of silently
losing clicks. Between steps the thread sleeps until a shell message arrives or the inbox is
woken (an interrupt, a close), never on a timer.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import socket
import threading
import time
from typing import Any

from jaxdbg_widgets._kernel import checks, shell_queue
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.inbox import Inbox, NoTransport

MAX_PARSE_FAILURES = 3
_pump_lock = threading.Lock()
_controls: set[str] = set()  # widget control comms opened while pumping; under _pump_lock
_log = logging.getLogger(__name__)


class _Waker:
    """A socket pair: writing a byte wakes a thread that polls the read end."""

    def __init__(self) -> None:
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)

    def fileno(self) -> int:
        return self._reader.fileno()

    def wake(self) -> None:
        with contextlib.suppress(OSError):  # full (a wake is pending anyway) or closed
            self._writer.send(b"\0")

    def drain(self) -> None:
        with contextlib.suppress(OSError):
            while self._reader.recv(4096):
                pass

    def close(self) -> None:
        self._writer.close()
        self._reader.close()


class PumpInbox(Inbox):
    """``get`` pumps the shell channel, then sleeps until a message arrives or it is woken."""

    tier = Tier.PUMP

    _failures = 0

    def __init__(self, comm: Any, cell: Any) -> None:
        self._waker = _Waker()
        try:
            super().__init__(comm, cell)
        except BaseException:
            self._waker.close()
            raise
        self._restoring = capability.widget_restore_available()

    def close(self) -> None:
        """Stop routing, then let go of the wake-up sockets."""
        closed = self._closed
        super().close()
        if not closed:
            self._waker.close()

    def _wake(self) -> None:
        self._waker.wake()

    def _wait(self, timeout: float | None) -> Any | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            while self._pump():
                pass  # a handler may have read newer messages off the socket into the queue
            found, item = self._mailbox.take(0)
            remaining = None if deadline is None else deadline - time.monotonic()
            if found or self._mailbox.closed or (remaining is not None and remaining <= 0):
                return item
            shell_queue.wait_for_shell_message(self._cell.kernel, self._waker.fileno(), remaining)
            self._waker.drain()

    def _pump(self) -> bool:
        """Handle this comm's queued messages; whether any was. An interrupt midway loses no
        other message."""
        kernel = self._cell.kernel
        handled = False
        with _pump_lock:
            waiting = collections.deque(shell_queue.take_shell_messages(kernel))
            try:
                while waiting:
                    entry = waiting.popleft()
                    if self._is_mine(entry):
                        self._dispatch(entry)
                        handled = True
                    else:
                        shell_queue.put_back_shell_message(kernel, entry)
            finally:
                for entry in waiting:
                    shell_queue.put_back_shell_message(kernel, entry)
        if self._failures >= MAX_PARSE_FAILURES:
            reason = f"{self._failures} shell messages in a row could not be parsed"
            checks.turn_off("ipykernel", "shell-pump", checks.FEATURE_PUMP, reason)
            raise NoTransport(f"shell pumping stopped: {reason}; see the kernel log")
        return handled

    def _dispatch(self, entry: Any) -> None:
        """Run the kernel's own handler for one message, then give the cell its parent."""
        try:
            shell_queue.handle_comm_message(self._cell.kernel, entry)
        except Exception:
            _log.exception("jaxdbg: a widget message could not be handled at a breakpoint")
        finally:
            self._cell.restore()

    def _is_mine(self, entry: Any) -> bool:
        """Whether a queued message is for this inbox's comm, or restores a reloaded page."""
        try:
            msg_type, comm_id = shell_queue.comm_target(self._cell.kernel, entry)
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
        return shell_queue.queued_restore_request(self._cell.kernel, entry, _controls)

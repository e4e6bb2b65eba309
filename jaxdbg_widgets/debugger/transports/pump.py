"""PUMP tier (ipykernel 6): the blocked thread reads the shell channel itself.

While a cell runs, ipykernel 6's main loop waits for the running handler, so nobody else reads
the shell stream: the blocked breakpoint may. Each step flushes the stream into the kernel's
message queue, dispatches the ``comm_msg``/``comm_close`` messages of the inbox's comm and puts
every other message back, in order, for the main loop to handle after the cell.
"""

from __future__ import annotations

import collections
import contextvars
import threading
import time
from collections.abc import Coroutine
from typing import Any

from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.inbox import Inbox

STEP_SECONDS = 0.005
_COMM_MESSAGES = frozenset({"comm_msg", "comm_close"})
_pump_lock = threading.Lock()


def _run_to_completion(coroutine: Coroutine[Any, Any, Any]) -> None:
    """Drive a coroutine that never truly suspends (ipykernel's comm dispatch) in a fresh context."""
    context = contextvars.copy_context()
    try:
        while True:
            context.run(coroutine.send, None)
    except StopIteration:
        return
    finally:
        coroutine.close()


class PumpInbox(Inbox):
    """``get`` pumps the shell channel between short waits on the mailbox."""

    tier = Tier.PUMP
    restore_parent_in_handler = False

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
        """Dispatch this comm's queued messages; an interrupt midway loses no other message."""
        kernel = self._cell.kernel
        with _pump_lock:
            kernel.shell_stream.flush()
            waiting = collections.deque()
            while kernel.msg_queue.qsize():
                waiting.append(kernel.msg_queue.get_nowait())
            try:
                while waiting:
                    entry = waiting.popleft()
                    if self._is_mine(entry):
                        self._dispatch(entry)
                    else:
                        kernel.msg_queue.put_nowait(entry)
            finally:
                for entry in waiting:
                    kernel.msg_queue.put_nowait(entry)

    def _dispatch(self, entry: tuple[Any, Any, tuple[Any, ...]]) -> None:
        """Run the kernel's own dispatch of one queued message, then give the cell its parent."""
        try:
            _run_to_completion(entry[1](*entry[2]))
        finally:
            self._cell.restore()

    def _is_mine(self, entry: tuple[Any, Any, tuple[Any, ...]]) -> bool:
        """Whether a queued ``(index, dispatch, (frames,))`` entry is a comm message for us.

        Header and content are unpacked without ``deserialize``, whose replay check would
        then reject the message when the kernel dispatches it for real.
        """
        session = self._cell.kernel.session
        try:
            _, frames = session.feed_identities(entry[2][0], copy=False)
            header = session.unpack(_bytes(frames[1]))
            if header.get("msg_type") not in _COMM_MESSAGES:
                return False
            return session.unpack(_bytes(frames[4])).get("comm_id") == self.comm_id
        except Exception:
            return False


def _bytes(frame: Any) -> bytes:
    return frame.bytes if hasattr(frame, "bytes") else bytes(frame)

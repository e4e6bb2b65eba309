"""PUMP tier (ipykernel 6): the blocked thread reads the shell channel itself.

While a cell runs, ipykernel 6's main loop waits for the running handler, so nobody else reads
the shell stream: the blocked breakpoint may. Each step flushes the stream into the kernel's
message queue, dispatches the ``comm_msg``/``comm_close`` messages of the inbox's comm and puts
every other message back, in order, for the main loop to handle after the cell.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Coroutine
from typing import Any

from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
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
        kernel = self._cell.kernel
        with _pump_lock:
            kernel.shell_stream.flush()
            waiting = []
            while True:
                try:
                    waiting.append(kernel.msg_queue.get_nowait())
                except Exception:
                    break
            for entry in waiting:
                if self._is_mine(entry):
                    _run_to_completion(entry[1](*entry[2]))
                else:
                    kernel.msg_queue.put_nowait(entry)

    def _is_mine(self, entry: tuple[Any, Any, tuple[Any, ...]]) -> bool:
        """Whether a queued ``(index, dispatch, (frames,))`` entry is a comm message for us."""
        session = self._cell.kernel.session
        try:
            _, frames = session.feed_identities(entry[2][0], copy=False)
            msg = session.deserialize(frames, content=True, copy=False)
        except Exception:
            return False
        return (
            msg["header"]["msg_type"] in _COMM_MESSAGES
            and msg["content"].get("comm_id") == self.comm_id
        )

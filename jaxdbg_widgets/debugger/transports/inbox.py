"""The inbox a blocked breakpoint reads its widget's messages from, whatever the tier."""

from __future__ import annotations

import threading
from typing import Any

from jaxdbg_widgets._undo import put_entry
from jaxdbg_widgets.debugger.transports import interrupts
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.mailbox import Mailbox


class NoTransport(RuntimeError):
    """No clickable tier in this kernel: fall back to typed commands or the headless policy."""


_open_lock = threading.Lock()
_open_comms: set[str] = set()


class Inbox:
    """Receives the ``model.send(content)`` messages of one widget while its cell is blocked.

    Opening it wraps the widget comm's ``handle_msg`` so every message handled for this comm
    (on whichever thread the tier dispatches it) is queued and the cell's parent header is put
    back, and holds the kernel's status at busy for the cell; ``close`` removes the wrapper,
    lets the status go and undoes anything else the tier changed.
    """

    tier: Tier

    def __init__(self, comm: Any, cell: CellParent) -> None:
        with _open_lock:
            if comm.comm_id in _open_comms:
                raise RuntimeError(f"widget comm {comm.comm_id} already has an open inbox")
            _open_comms.add(comm.comm_id)
        self._comm = comm
        self._cell = cell
        self._mailbox = Mailbox(wake=self._wake)
        self._interrupt_key = interrupts.add_waiter(self._mailbox.interrupt, self._mailbox.nudge)
        self._closed = False
        self._unwrap = put_entry(vars(comm), "handle_msg", self._wrap(comm.handle_msg))
        self._release_busy = cell.hold_busy()

    @property
    def comm_id(self) -> str:
        return self._comm.comm_id

    def get(self, timeout: float | None = None) -> Any | None:
        """Block until the front end sends a custom message; its content, or None on timeout.

        A kernel interrupt while the inbox is open raises ``KeyboardInterrupt`` on this thread,
        at once if it is waiting here, else on its next ``get``.
        """
        if self._closed:
            raise RuntimeError("this inbox is closed")
        if timeout is not None and timeout < 0:
            raise ValueError(f"timeout must be >= 0 or None, got {timeout!r}")
        return self._wait(timeout)

    def wake(self) -> None:
        """Make a waiting :meth:`get` return ``None`` now (something else changed to redraw)."""
        self._mailbox.put(None)

    def close(self) -> None:
        """Stop routing and restore the comm exactly as it was; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._mailbox.close()
        interrupts.remove_waiter(self._interrupt_key)
        self._unwrap()
        self._release_busy()
        self._cell.restore()
        with _open_lock:
            _open_comms.discard(self._comm.comm_id)

    def __enter__(self) -> Inbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _wake(self) -> None:
        """Wake a waiter that sleeps outside the mailbox; tiers that need it override this."""

    def _wait(self, timeout: float | None) -> Any | None:
        _, item = self._mailbox.take(timeout)
        return item

    def _wrap(self, handle_msg: Any) -> Any:
        def handle_and_queue(msg: dict[str, Any]) -> None:
            try:
                handle_msg(msg)
            finally:
                self._cell.restore()
                data = msg.get("content", {}).get("data") or {}
                if data.get("method") == "custom":
                    self._mailbox.put(data.get("content"))

        return handle_and_queue

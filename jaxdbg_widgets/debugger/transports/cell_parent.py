"""The running cell's parent header, kept so output from any thread stays in the cell.

Handling a comm message sets the kernel's "last parent" (used by threads that never set their
own, such as XLA's workers) to that message. Restoring it after each handled message keeps the
widget's state updates, prints and ``input()`` of a blocked breakpoint attached to the cell.
Holding it keeps the kernel reading busy for the cell while handled messages report idle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets._kernel import busy_status, parent
from jaxdbg_widgets.debugger.transports import capability


@dataclass(frozen=True)
class CellParent:
    """The shell request (identities and message) whose cell is running now."""

    kernel: Any
    ident: Any
    message: dict[str, Any]

    @classmethod
    def capture(cls, kernel: Any) -> CellParent:
        """Read the shell parent as the calling thread sees it."""
        return cls(kernel, *parent.shell_parent(kernel))

    @property
    def msg_id(self) -> str | None:
        return self.message.get("header", {}).get("msg_id")

    def restore(self) -> None:
        """Make this the kernel-wide fallback parent without touching the calling thread's own."""
        parent.restore_shell_parent(self.kernel, self.ident, self.message)

    def hold_busy(self) -> Callable[[], None]:
        """Keep the kernel reading busy for this cell until the returned release is called."""
        if not capability.busy_status_available():
            return lambda: None
        return busy_status.hold_busy(self.kernel, self.message)

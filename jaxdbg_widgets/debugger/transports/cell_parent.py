"""The running cell's parent header, kept so output from any thread stays in the cell.

Handling a comm message sets the kernel's "last parent" (used by threads that never set their
own, such as XLA's workers) to that message. Restoring it after each handled message keeps the
widget's state updates, prints and ``input()`` of a blocked breakpoint attached to the cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets import _kernel_internals


@dataclass(frozen=True)
class CellParent:
    """The shell request (identities and message) whose cell is running now."""

    kernel: Any
    ident: Any
    message: dict[str, Any]

    @classmethod
    def capture(cls, kernel: Any) -> CellParent:
        """Read the shell parent as the calling thread sees it."""
        return cls(kernel, *_kernel_internals.shell_parent(kernel))

    @property
    def msg_id(self) -> str | None:
        return self.message.get("header", {}).get("msg_id")

    def restore(self) -> None:
        """Make this the kernel-wide fallback parent without touching the calling thread's own."""
        _kernel_internals.restore_shell_parent(self.kernel, self.ident, self.message)

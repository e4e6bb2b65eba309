"""``read_line``: a typed command through the kernel's stdin channel, from any thread."""

from __future__ import annotations

from jaxdbg_widgets import _kernel_internals
from jaxdbg_widgets.debugger.transports import capability, interrupts


def read_line(prompt: str) -> str | None:
    """Ask the front end for one line (like ``input()``); None when stdin is not allowed.

    Works on the main thread and on an XLA worker thread; a kernel interrupt while waiting
    raises ``KeyboardInterrupt`` on the calling thread. End of input raises ``EOFError``.
    """
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, got {type(prompt).__name__}")
    kernel = capability.current_kernel()
    if kernel is None or not capability.stdin_allowed(kernel):
        return None
    with interrupts.raising_on_interrupt():
        return _kernel_internals.read_stdin(kernel, prompt)

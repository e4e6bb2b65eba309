"""``read_line``: a typed command through the kernel's stdin channel, from any thread."""

from __future__ import annotations

from jaxdbg_widgets._kernel import stdin_channel
from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.debugger.transports import interrupts


def read_line(prompt: str) -> str | None:
    """Ask the front end for one line (like ``input()``); None when stdin is not allowed.

    Works on the main thread and on an XLA worker thread; a kernel interrupt while waiting
    raises ``KeyboardInterrupt`` on the calling thread. End of input raises ``EOFError``.
    """
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, got {type(prompt).__name__}")
    kernel = running_kernel()
    if kernel is None or not stdin_channel.allowed(kernel):
        return None
    with interrupts.raising_on_interrupt():
        return stdin_channel.read(kernel, prompt)

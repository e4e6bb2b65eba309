"""Which transport this kernel supports, read from the capability table the kernel checks filled.

Nothing here probes the kernel: the checks ran when the extension loaded (or, in a kernel that
only imported the package, once at the first breakpoint), and a failure found later (the pump
giving up) is recorded in the same table. Reading it is safe from any thread at any time.
"""

from __future__ import annotations

import enum
import sys
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import checks, stdin_channel
from jaxdbg_widgets._kernel.shell import running_kernel


class Tier(str, enum.Enum):
    """How a blocked breakpoint can still receive the user's commands, best first."""

    SUBSHELL = "subshell"  # ipykernel 7: the widget's comm messages are routed to a kernel subshell
    PUMP = "pump"  # ipykernel 6: the blocked code pumps the shell channel itself
    STDIN = "stdin"  # typed jdb commands through input()
    TERMINAL = "terminal"  # no kernel: typed commands on the terminal
    HEADLESS = "headless"  # nobody can answer: the headless policy decides


DESCRIPTIONS = {
    Tier.SUBSHELL: "clickable widget (comm messages routed to a kernel subshell)",
    Tier.PUMP: "clickable widget (shell messages pumped while blocked)",
    Tier.STDIN: "typed jdb commands through the stdin channel",
    Tier.TERMINAL: "typed jdb commands on the terminal",
    Tier.HEADLESS: "no front end can answer; the headless policy applies",
}


def widget_restore_available() -> bool:
    """Whether a reloaded page's widget requests can be answered while a breakpoint waits."""
    return _capabilities.has("ipykernel", "widget-restore")


def busy_status_available() -> bool:
    """Whether the kernel can keep reading busy while a breakpoint serves widget messages."""
    return _capabilities.has("ipykernel", "busy-status")


def widget_tier(kernel: Any | None) -> Tier | None:
    """The clickable tier this kernel supports, regardless of who is connected."""
    if kernel is None:
        return None
    checks.ensure_kernel_checked(kernel)
    if _capabilities.has("ipykernel", "subshell-routing"):
        return Tier.SUBSHELL
    if _capabilities.has("ipykernel", "shell-pump"):
        return Tier.PUMP
    return None


def detect_tier(kernel: Any | None = None) -> Tier:
    """The best tier that can reach a person for the request executing now."""
    kernel = running_kernel() if kernel is None else kernel
    if kernel is None:
        return Tier.TERMINAL if sys.stdin is not None and sys.stdin.isatty() else Tier.HEADLESS
    if not stdin_channel.allowed(kernel):
        return Tier.HEADLESS
    return widget_tier(kernel) or Tier.STDIN

"""Which transport this kernel supports, checked at run time against ipykernel's internals.

Every check here reads attributes only; the transports themselves live beside this module.
"""

from __future__ import annotations

import enum
import sys
from typing import Any


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


def current_kernel() -> Any | None:
    """The running ipykernel's kernel object, or ``None`` outside a kernel."""
    ipython_module = sys.modules.get("IPython")
    if ipython_module is None:
        return None
    shell = ipython_module.get_ipython()
    return getattr(shell, "kernel", None)


def supports_subshell_routing(kernel: Any) -> bool:
    """ipykernel >= 7.4: a shell-channel thread with a subshell manager, and comms that route."""
    channel_thread = getattr(kernel, "shell_channel_thread", None)
    manager = getattr(channel_thread, "manager", None)
    if manager is None or not hasattr(manager, "get_shell_channel_to_subshell_socket"):
        return False
    try:
        from ipykernel.comm.comm import BaseComm
    except ImportError:
        return False
    return hasattr(BaseComm, "_reply_subshell_for")


def supports_pumping(kernel: Any) -> bool:
    """ipykernel 6: ``do_one_iteration`` handles one pending shell message."""
    return callable(getattr(kernel, "do_one_iteration", None))


def stdin_allowed(kernel: Any) -> bool:
    """Whether the request now executing lets the kernel ask the front end for input."""
    return bool(getattr(kernel, "_allow_stdin", False))


def widget_tier(kernel: Any | None) -> Tier | None:
    """The clickable tier this kernel supports, regardless of who is connected."""
    if kernel is None:
        return None
    if supports_subshell_routing(kernel):
        return Tier.SUBSHELL
    if supports_pumping(kernel):
        return Tier.PUMP
    return None


def detect_tier(kernel: Any | None = None) -> Tier:
    """The best tier that can reach a person for the request executing now."""
    kernel = current_kernel() if kernel is None else kernel
    if kernel is None:
        return Tier.TERMINAL if sys.stdin is not None and sys.stdin.isatty() else Tier.HEADLESS
    if not stdin_allowed(kernel):
        return Tier.HEADLESS
    return widget_tier(kernel) or Tier.STDIN

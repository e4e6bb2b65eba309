"""Which transport this kernel supports, checked at run time against ipykernel's internals.

Every check here reads attributes only, so it is safe to call from any thread at any time;
the transports themselves live beside this module.
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


def _has_parent_tracking(kernel: Any) -> bool:
    """Both tiers save and restore the running cell's parent header through these."""
    return all(callable(getattr(kernel, name, None)) for name in ("get_parent", "set_parent")) and (
        hasattr(kernel, "_parent_ident")
    )


def supports_subshell_routing(kernel: Any) -> bool:
    """ipykernel >= 7.4: a shell-channel thread with a subshell manager, and comms that route."""
    channel_thread = getattr(kernel, "shell_channel_thread", None)
    if channel_thread is None or not hasattr(channel_thread, "io_loop"):
        return False
    manager = getattr(channel_thread, "manager", None)
    needed = ("_create_subshell", "list_subshell", "get_shell_channel_to_subshell_socket")
    if manager is None or not all(hasattr(manager, name) for name in needed):
        return False
    if not hasattr(kernel, "comm_manager") or not _has_parent_tracking(kernel):
        return False
    try:
        from ipykernel.comm.comm import BaseComm
    except ImportError:
        return False
    return hasattr(BaseComm, "_reply_subshell_for")


def supports_pumping(kernel: Any) -> bool:
    """ipykernel 6: a shell stream feeding ``msg_queue``, drained one message at a time."""
    if not callable(getattr(kernel, "do_one_iteration", None)):
        return False
    queue = getattr(kernel, "msg_queue", None)
    return (
        getattr(kernel, "shell_stream", None) is not None
        and callable(getattr(kernel, "dispatch_shell", None))
        and all(hasattr(queue, name) for name in ("qsize", "get_nowait", "put_nowait"))
        and _has_parent_tracking(kernel)
    )


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

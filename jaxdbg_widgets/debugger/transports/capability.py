"""Which transport this kernel supports, checked through the kernel adapter.

Every check here reads attributes only, so it is safe to call from any thread at any time;
the transports themselves live beside this module.
"""

from __future__ import annotations

import enum
import sys
from typing import Any

from jaxdbg_widgets import _capabilities, _kernel_internals


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
    return _kernel_internals.running_kernel()


def supports_subshell_routing(kernel: Any) -> bool:
    """ipykernel >= 7.4: a comm's messages can be routed to a kernel subshell."""
    return _kernel_internals.supports_subshell_routing(kernel)


def supports_pumping(kernel: Any) -> bool:
    """ipykernel 6: the blocked thread may read the shell channel's queued messages."""
    return _kernel_internals.supports_pumping(kernel) and not _turned_off("shell-pump")


def stdin_allowed(kernel: Any) -> bool:
    """Whether the request now executing lets the kernel ask the front end for input."""
    return _kernel_internals.stdin_allowed(kernel)


def widget_restore_available(kernel: Any) -> bool:
    """Whether a reloaded page's widget requests can be answered while a breakpoint waits.

    The load-time check decides; before any (outside ``%load_ext``) the probe runs now.
    """
    checked = any(
        c.library == "ipykernel" and c.name == "widget-restore"
        for c in _capabilities.all_capabilities()
    )
    if checked:
        return _capabilities.has("ipykernel", "widget-restore")
    if supports_subshell_routing(kernel):
        return _kernel_internals.supports_restore_routing(kernel)
    return _kernel_internals.supports_pumped_restore(kernel)


def _turned_off(name: str) -> bool:
    """Whether a run-time failure turned the ipykernel capability ``name`` off."""
    return any(c.library == "ipykernel" and c.name == name for c in _capabilities.degraded())


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

"""``open_inbox``: pick the clickable tier this kernel supports for one displayed widget."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.transports.cell_parent import CellParent
from jaxdbg_widgets.debugger.transports.inbox import Inbox, NoTransport


def _registered_comm(kernel: Any, widget: Any) -> Any:
    """The widget's open comm, checked to be the one the kernel dispatches to."""
    if not hasattr(widget, "comm") or not callable(getattr(widget, "on_msg", None)):
        raise TypeError(f"open_inbox expects an ipywidgets/anywidget widget, got {type(widget)!r}")
    comm = widget.comm
    if comm is None:
        raise ValueError("the widget's comm is closed; display a live widget first")
    manager = getattr(kernel, "comm_manager", None)
    if manager is not None and manager.get_comm(comm.comm_id) is not comm:
        raise ValueError(f"comm {comm.comm_id} is not registered with this kernel")
    return comm


def open_inbox(widget: Any) -> Inbox:
    """Start receiving ``widget``'s front-end messages while this cell is blocked.

    Call it on the thread that will block (the breakpoint's), once the widget exists: opening
    before ``display`` means not even the first click can arrive before routing starts.
    SUBSHELL on ipykernel >= 7.4, PUMP on ipykernel 6; raises :class:`NoTransport` otherwise.
    """
    kernel = running_kernel()
    if kernel is None:
        raise NoTransport("not running in an IPython kernel; no front end can click")
    tier = capability.widget_tier(kernel)
    if tier is None:
        raise NoTransport(
            f"{type(kernel).__module__}.{type(kernel).__name__} supports neither subshell "
            "routing (ipykernel >= 7.4) nor shell pumping (ipykernel 6); see %jaxdbg status"
        )
    comm = _registered_comm(kernel, widget)
    cell = CellParent.capture(kernel)
    if tier is Tier.SUBSHELL:
        from jaxdbg_widgets.debugger.transports.subshell import SubshellInbox

        return SubshellInbox(comm, cell)
    from jaxdbg_widgets.debugger.transports.pump import PumpInbox

    return PumpInbox(comm, cell)

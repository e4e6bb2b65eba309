"""How a blocked kernel still hears the user: one module per tier, chosen by capability.

``open_inbox(widget)`` gives an :class:`Inbox` whose ``get`` returns the widget's
``model.send(content)`` messages while the breakpoint's thread is blocked; ``read_line``
asks for a typed command through stdin. ``interrupts.install`` (run by ``%load_ext jaxdbg``)
lets a kernel interrupt reach a breakpoint waiting on an XLA worker thread.
"""

from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier, widget_tier
from jaxdbg_widgets.debugger.transports.inbox import Inbox, NoTransport
from jaxdbg_widgets.debugger.transports.interrupts import install as watch_interrupts
from jaxdbg_widgets.debugger.transports.opening import open_inbox
from jaxdbg_widgets.debugger.transports.stdin import read_line

__all__ = [
    "Inbox",
    "NoTransport",
    "Tier",
    "detect_tier",
    "open_inbox",
    "read_line",
    "watch_interrupts",
    "widget_tier",
]

"""The core runtime: debug primitives, their transformation rules, lowering and frame capture."""

from jaxdbg_widgets.core.barrier import effects_barrier
from jaxdbg_widgets.core.breakpoints import breakpoint, breakpoint_if, breakpoint_if_nonfinite
from jaxdbg_widgets.core.callbacks import callback, current_batch
from jaxdbg_widgets.core.effects import DebugEffect, OrderedDebugEffect
from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.core.gradients import print_grad
from jaxdbg_widgets.core.printing import log, print
from jaxdbg_widgets.core.sinks import PrintRecord, add_print_sink

__all__ = [
    "DebugEffect",
    "DebuggerQuit",
    "OrderedDebugEffect",
    "PrintRecord",
    "add_print_sink",
    "breakpoint",
    "breakpoint_if",
    "breakpoint_if_nonfinite",
    "callback",
    "current_batch",
    "effects_barrier",
    "log",
    "print",
    "print_grad",
]

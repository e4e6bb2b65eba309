"""jaxdbg-widgets: notebook-native debugging for JAX.

This module is the public surface only; everything lives in the layer packages
(``core``, ``debugger``, ``sharding``, ``notebook``).
"""

from jaxdbg_widgets._version import __version__
from jaxdbg_widgets.core import (
    DebugEffect,
    OrderedDebugEffect,
    breakpoint,
    breakpoint_if,
    breakpoint_if_nonfinite,
    callback,
    effects_barrier,
    log,
    print,
    print_grad,
)
from jaxdbg_widgets.debugger.scripts import script
from jaxdbg_widgets.notebook.printlog import PrintLog
from jaxdbg_widgets.sharding import (
    ShardingWidget,
    inspect_array_sharding,
    sharding_html,
    sharding_layout,
    sharding_text,
    visualize_array_sharding,
    visualize_sharding,
)

__all__ = [
    "DebugEffect",
    "OrderedDebugEffect",
    "PrintLog",
    "ShardingWidget",
    "__version__",
    "breakpoint",
    "breakpoint_if",
    "breakpoint_if_nonfinite",
    "callback",
    "effects_barrier",
    "inspect_array_sharding",
    "log",
    "print",
    "print_grad",
    "script",
    "sharding_html",
    "sharding_layout",
    "sharding_text",
    "visualize_array_sharding",
    "visualize_sharding",
]

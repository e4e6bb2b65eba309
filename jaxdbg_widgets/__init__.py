"""jaxdbg-widgets: notebook-native debugging for JAX.

This module is the public surface: the debug primitives, the debugger's ``script``, and one
entry point per tool (NaN search, pictures, sharding, memory, communication, compiles,
clusters). The layer packages below it are internal: their modules may change between
releases, and what a user needs from them is re-exported here (``__all__``). Importing it
installs the standalone debugger backend, so ``jdw.breakpoint``, scripts and
``$JAXDBG_HEADLESS`` work without ``%load_ext``. The widget classes are imported on first
use, so ``import jaxdbg_widgets`` loads no IPython, ipywidgets or anywidget.
"""

from typing import Any

from jaxdbg_widgets._version import __version__
from jaxdbg_widgets.comms import communication_map, communication_map_from_text
from jaxdbg_widgets.compiles import CompileReport, TooManyCompiles, max_compiles, watch_compiles
from jaxdbg_widgets.core import (
    DebugEffect,
    DebuggerQuit,
    OrderedDebugEffect,
    breakpoint,
    breakpoint_if,
    breakpoint_if_nonfinite,
    callback,
    current_batch,
    effects_barrier,
    log,
    print,
    print_grad,
)
from jaxdbg_widgets.debugger.install import standalone as _standalone
from jaxdbg_widgets.debugger.serve.scripts import script
from jaxdbg_widgets.memory import memory_map
from jaxdbg_widgets.memory.peak_api import peak_memory
from jaxdbg_widgets.nans import NonfiniteReport, find_nonfinite
from jaxdbg_widgets.pictures import show
from jaxdbg_widgets.sharding import (
    inspect_array_sharding,
    sharding_html,
    sharding_layout,
    sharding_text,
    visualize_array_sharding,
    visualize_sharding,
)
from jaxdbg_widgets.sharding.stand_in import GridSharding

_standalone.install()  # jdw.breakpoint, scripts and $JAXDBG_HEADLESS work without %load_ext

_LAZY = {
    "PrintLog": "jaxdbg_widgets.notebook.printlog_display",
    "session_log": "jaxdbg_widgets.notebook.session_log",
    "ShardingWidget": "jaxdbg_widgets.sharding.widget",
    "CommunicationWidget": "jaxdbg_widgets.comms.widget",
    "cluster": "jaxdbg_widgets.multiprocess.job",
    "cluster_compiles": "jaxdbg_widgets.multiprocess.compiles",
    "cluster_memory_map": "jaxdbg_widgets.multiprocess.memory",
    "cluster_sharding_view": "jaxdbg_widgets.multiprocess.sharding",
}

__all__ = [
    "CommunicationWidget",
    "CompileReport",
    "DebugEffect",
    "DebuggerQuit",
    "GridSharding",
    "NonfiniteReport",
    "OrderedDebugEffect",
    "PrintLog",
    "ShardingWidget",
    "TooManyCompiles",
    "__version__",
    "breakpoint",
    "breakpoint_if",
    "breakpoint_if_nonfinite",
    "callback",
    "cluster",
    "cluster_compiles",
    "cluster_memory_map",
    "cluster_sharding_view",
    "communication_map",
    "communication_map_from_text",
    "current_batch",
    "effects_barrier",
    "find_nonfinite",
    "inspect_array_sharding",
    "log",
    "max_compiles",
    "memory_map",
    "peak_memory",
    "print",
    "print_grad",
    "script",
    "session_log",
    "sharding_html",
    "sharding_layout",
    "sharding_text",
    "show",
    "visualize_array_sharding",
    "visualize_sharding",
    "watch_compiles",
]


def __getattr__(name: str) -> Any:
    """Import a widget class on first use (it brings in anywidget and IPython)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, the lazily imported ones included."""
    return sorted(set(globals()) | set(__all__))

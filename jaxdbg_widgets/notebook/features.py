"""What ``%load_ext jaxdbg`` turns on: an ordered list of features, each installed with an undo.

A feature is a function ``install(ip) -> undo``. Loading installs them in order; unloading
runs the undos in reverse, so everything loading changed is restored. A feature whose
install raises is left off and named in the load message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.compiles import command as compiles_command
from jaxdbg_widgets.debugger.install import feature as debugger_feature
from jaxdbg_widgets.debugger.transports import interrupts
from jaxdbg_widgets.notebook import colab, magics, nans, routing, session_log, sharding_display

Undo = Callable[[], None]
Install = Callable[[Any], Undo]

FEATURES: list[tuple[str, Install]] = [
    ("%jaxdbg magic", magics.install),
    ("nan checks restored on unload", nans.install),
    ("prints routed to their cell", routing.install),
    ("jax.debug.print through jaxdbg_widgets.print", routing.route_jax_debug_print),
    ("session print log", session_log.install),
    ("jaxdbg debugger backend", debugger_feature.install),
    ("interrupts reach breakpoints on worker threads", interrupts.install),
    ("sharding widget and diagrams", sharding_display.install),
    ("every compile recorded for %jaxdbg compiles", compiles_command.install),
    ("Colab's custom widget manager", colab.install),
]

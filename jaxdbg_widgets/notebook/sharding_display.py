"""Sharding views in the notebook: ``jax.debug``'s visualizers show the widget, and a
``NamedSharding`` or ``Mesh`` cell result displays as a diagram. Unloading restores both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
from jax.sharding import Mesh, NamedSharding

from jaxdbg_widgets.sharding import visualize_array_sharding, visualize_sharding
from jaxdbg_widgets.sharding.diagrams import mesh_html, named_sharding_html

_REPLACED = {
    "visualize_array_sharding": visualize_array_sharding,
    "visualize_sharding": visualize_sharding,
}
_FORMATTERS = {NamedSharding: named_sharding_html, Mesh: mesh_html}


def install(ip: Any) -> Callable[[], None]:
    """Swap in our visualizers and register the HTML formatters; the undo puts everything back."""
    saved = {name: getattr(jax.debug, name) for name in _REPLACED}
    html = ip.display_formatter.formatters["text/html"]
    previous = {cls: html.type_printers.get(cls) for cls in _FORMATTERS}
    for name, function in _REPLACED.items():
        setattr(jax.debug, name, function)
    for cls, render in _FORMATTERS.items():
        html.for_type(cls, render)

    def undo() -> None:
        for name, function in saved.items():
            setattr(jax.debug, name, function)
        for cls, printer in previous.items():
            if printer is None:
                html.type_printers.pop(cls, None)
            else:
                html.for_type(cls, printer)

    return undo

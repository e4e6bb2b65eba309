"""Colab: its front end draws third-party widgets only with the custom widget manager on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def install(_ip: Any) -> Callable[[], None]:
    """Enable Colab's custom widget manager when ``google.colab`` is importable; return the undo."""
    try:
        from google.colab import output
    except ImportError:
        return lambda: None
    output.enable_custom_widget_manager()

    def undo() -> None:
        output.disable_custom_widget_manager()

    return undo

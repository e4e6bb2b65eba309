"""A ``rich`` renderable as a string, 120 columns wide, the one way every map prints."""

from __future__ import annotations

import io
from typing import Any


def rich_string(renderable: Any, *, use_color: bool = False) -> str:
    """``renderable`` as text; with ``use_color`` it carries 24-bit ANSI colour codes."""
    import rich.console

    buffer = io.StringIO()
    console = rich.console.Console(
        file=buffer,
        width=120,
        color_system="truecolor" if use_color else None,
        force_terminal=use_color,
        force_jupyter=False,
        highlight=False,
    )
    console.print(renderable)
    return buffer.getvalue()

"""The ``%jaxdbg`` line magic and its tab completion (IPython 7 to 9, through the adapter)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import completion
from jaxdbg_widgets.notebook import commands


def jaxdbg_magic(line: str) -> None:
    """``%jaxdbg SUBCOMMAND ...``: run a subcommand; wrong use prints one line and the usage."""
    try:
        commands.run(line)
    except commands.UsageError as err:
        print(f"%jaxdbg: {err}\n{commands.help_text()}", file=sys.stderr)


def install(ip: Any) -> Callable[[], None]:
    """Register ``%jaxdbg`` and, where IPython allows it, its completer; return the undo."""
    ip.register_magic_function(jaxdbg_magic, magic_kind="line", magic_name="jaxdbg")
    undo_completion = None
    if _capabilities.has("ipython", "completion"):
        undo_completion = completion.add_line_completer(ip, "%jaxdbg", commands.complete)

    def undo() -> None:
        ip.magics_manager.magics["line"].pop("jaxdbg", None)
        if undo_completion is not None:
            undo_completion()

    return undo

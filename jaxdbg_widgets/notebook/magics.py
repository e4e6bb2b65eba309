"""The ``%jaxdbg`` line magic and its tab completion."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.notebook import commands


def jaxdbg_magic(line: str) -> None:
    """``%jaxdbg SUBCOMMAND ...``: run a subcommand; wrong use prints one line and the usage."""
    try:
        commands.run(line)
    except commands.UsageError as err:
        print(f"%jaxdbg: {err}\n{commands.help_text()}", file=sys.stderr)


def _completer(_shell: Any, event: Any) -> list[str]:
    return commands.complete(event.line)


def install(ip: Any) -> Callable[[], None]:
    """Register ``%jaxdbg`` and its completer; return the undo."""
    ip.register_magic_function(jaxdbg_magic, magic_kind="line", magic_name="jaxdbg")
    ip.set_hook("complete_command", _completer, str_key="%jaxdbg")

    def undo() -> None:
        ip.magics_manager.magics["line"].pop("jaxdbg", None)
        _remove_completer(ip)

    return undo


def _remove_completer(ip: Any) -> None:
    dispatcher = ip.strdispatchers.get("complete_command")
    if dispatcher is not None:
        dispatcher.strs.pop("%jaxdbg", None)

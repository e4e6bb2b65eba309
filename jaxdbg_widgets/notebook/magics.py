"""The ``%jaxdbg`` line magic and its tab completion."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from IPython.core.completer import SimpleCompletion, context_matcher

from jaxdbg_widgets.notebook import commands


def jaxdbg_magic(line: str) -> None:
    """``%jaxdbg SUBCOMMAND ...``: run a subcommand; wrong use prints one line and the usage."""
    try:
        commands.run(line)
    except commands.UsageError as err:
        print(f"%jaxdbg: {err}\n{commands.help_text()}", file=sys.stderr)


@context_matcher()
def complete_jaxdbg(context: Any) -> dict[str, Any]:
    """Offer subcommands and their choices on a ``%jaxdbg`` line, and nothing else there."""
    line = context.text_until_cursor
    if not line.lstrip().startswith("%jaxdbg "):
        return {"completions": [], "suppress": False}
    matches = commands.complete(line.lstrip())
    return {
        "completions": [SimpleCompletion(text=m, type="jaxdbg") for m in matches],
        "suppress": True,
    }


def install(ip: Any) -> Callable[[], None]:
    """Register ``%jaxdbg`` and its completer; return the undo."""
    ip.register_magic_function(jaxdbg_magic, magic_kind="line", magic_name="jaxdbg")
    ip.Completer.custom_matchers.append(complete_jaxdbg)

    def undo() -> None:
        ip.magics_manager.magics["line"].pop("jaxdbg", None)
        if complete_jaxdbg in ip.Completer.custom_matchers:
            ip.Completer.custom_matchers.remove(complete_jaxdbg)

    return undo

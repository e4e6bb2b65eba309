"""An error shown in the cell as one ``Type: message`` line, the way ipykernel publishes one."""

from __future__ import annotations

import inspect
import sys
from typing import Any

from jaxdbg_widgets import _capabilities


def probe(shell: Any) -> None:
    """Raise unless IPython's traceback display takes a prepared structured traceback."""
    _capabilities.require_attributes(shell, ("_showtraceback", "InteractiveTB", "set_custom_exc"))
    _capabilities.require_attributes(shell.InteractiveTB, ("get_exception_only",))
    inspect.signature(shell._showtraceback).bind("etype", "evalue", "stb")


def show_error_line(shell: Any, value: BaseException) -> list[str]:
    """Show ``value`` in the cell as one ``Type: message`` line (what ipykernel publishes)."""
    stb = _exception_only(shell, value)
    if _capabilities.has("ipython", "error-line"):
        shell._showtraceback(type(value), value, stb)
    else:
        print("".join(stb), end="", file=sys.stderr)
    return stb


def _exception_only(shell: Any, value: BaseException) -> list[str]:
    """IPython's ``Type: message`` of ``value`` alone, its cause and context left out while it
    is formatted (IPython 7 fails to format a chained exception here, as JAX's errors raised
    inside a transformation are) and put back after."""
    chain = value.__cause__, value.__context__, value.__suppress_context__
    value.__cause__ = value.__context__ = None
    try:
        return shell.InteractiveTB.get_exception_only(type(value), value)
    finally:
        value.__cause__, value.__context__, value.__suppress_context__ = chain

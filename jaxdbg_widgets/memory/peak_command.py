"""``%jaxdbg peak CALL``: what is live at the peak of a call such as ``step(params, batch)``.

The call is not made: its function and arguments are evaluated in the user's namespace and
compiled ahead of time by :func:`peak_memory`. IPython is only looked up when it runs.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._kernel.call_text import parse_call
from jaxdbg_widgets._kernel.shell import running_shell
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.memory.peak_api import peak_memory
from jaxdbg_widgets.memory.peak_display import PeakMemory

USAGE = "peak needs a call, such as: %jaxdbg peak step(params, batch)"


def evaluate(expression: str, namespace: dict[str, Any]) -> PeakMemory:
    """The peak report of the call ``expression``; ValueError with one line when it fails."""
    if not expression.strip():
        raise ValueError(USAGE)
    fun, args, kwargs = parse_call(expression, namespace, "peak")
    try:
        return peak_memory(fun, *args, **kwargs)
    except (TypeError, ValueError) as err:
        raise ValueError(f"peak: {str(err) or one_line(err)}") from None


def show(args: list[str]) -> None:
    """Display the peak report of the words ``args`` joined as one call."""
    from IPython.display import display

    display(evaluate(" ".join(args), _user_namespace()))


def _user_namespace() -> dict[str, Any]:
    shell = running_shell()
    return shell.user_ns if shell is not None else {}

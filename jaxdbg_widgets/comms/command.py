"""``%jaxdbg comms CALL``: map the communication of a call such as ``step(params, batch)``.

The call is not made: its function and arguments are evaluated in the user's namespace and
handed to :func:`communication_map`, which compiles for abstract arguments. IPython is only
looked up when the command runs, so this module imports nothing of it.
"""

from __future__ import annotations

import sys
from typing import Any

from jaxdbg_widgets._kernel.call_text import parse_call
from jaxdbg_widgets._kernel.completion import LiveNames
from jaxdbg_widgets.comms.api import communication_map
from jaxdbg_widgets.comms.display import CommunicationMap
from jaxdbg_widgets.core.errors import one_line


def evaluate(expression: str, namespace: dict[str, Any]) -> CommunicationMap:
    """The map of the call ``expression``, its parts evaluated in ``namespace``.

    Raises ValueError with one line when it is not a call or a part fails.
    """
    text = expression.strip()
    fun, args, kwargs = parse_call(text, namespace, "comms")
    try:
        return communication_map(fun, *args, **kwargs)
    except Exception as err:
        raise ValueError(f"comms: compiling {text!r} failed: {one_line(err)}") from None


def show(args: list[str]) -> None:
    """Display the map of the words ``args`` joined as one call."""
    from IPython.display import display

    if not args:
        raise ValueError("comms needs a call, such as: %jaxdbg comms step(params, batch)")
    display(evaluate(" ".join(args), _user_namespace()))


def callable_names() -> LiveNames:
    """The completion choices of ``%jaxdbg comms``: the user's callables, read at each use."""
    return LiveNames(_callables)


def _callables() -> list[str]:
    namespace = _user_namespace()
    return sorted(
        name
        for name, value in namespace.items()
        if not name.startswith("_") and callable(value) and not isinstance(value, type)
    )


def _user_namespace() -> dict[str, Any]:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell.user_ns if shell is not None else {}

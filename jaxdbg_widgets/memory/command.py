"""``%jaxdbg memory [expr]``: evaluate an expression in the user's namespace and show its map.

IPython is only looked up when the command runs, so this module imports nothing of it.
"""

from __future__ import annotations

import types
from typing import Any

from jaxdbg_widgets._kernel.completion import LiveNames
from jaxdbg_widgets._kernel.shell import running_shell
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.memory.api import memory_map
from jaxdbg_widgets.memory.display import MemoryMap

_IPYTHON_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})


def evaluate(expression: str, namespace: dict[str, Any]) -> MemoryMap:
    """The map of ``expression`` evaluated in ``namespace``; every live array when it is empty,
    each named by the variable of ``namespace`` that holds it.

    Raises ValueError with one line when the expression fails.
    """
    if not expression.strip():
        return memory_map(namespace=namespace)
    try:
        value = eval(expression, namespace)
    except Exception as err:
        raise ValueError(f"memory: {expression!r} failed: {one_line(err)}") from None
    return memory_map(value)


def show(args: list[str]) -> None:
    """Display the map of the words ``args`` joined as one expression."""
    from IPython.display import display

    display(evaluate(" ".join(args), _user_namespace()))


def candidate_names(namespace: dict[str, Any]) -> list[str]:
    """The user's variables that may hold arrays: no modules, functions, classes or IPython's own."""
    return sorted(
        name
        for name, value in namespace.items()
        if not name.startswith("_")
        and name not in _IPYTHON_NAMES
        and not isinstance(value, types.ModuleType | type)
        and not callable(value)
    )


def namespace_names() -> LiveNames:
    """The completion choices of ``%jaxdbg memory``: :func:`candidate_names`, read at each use."""
    return LiveNames(lambda: candidate_names(_user_namespace()))


def _user_namespace() -> dict[str, Any]:
    shell = running_shell()
    return shell.user_ns if shell is not None else {}

"""``%jaxdbg memory [expr]``: evaluate an expression in the user's namespace and show its map.

IPython is only looked up when the command runs, so this module imports nothing of it.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Sequence
from typing import Any, overload

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


class NamespaceNames(Sequence[str]):
    """The completion choices of ``%jaxdbg memory``: :func:`candidate_names`, read at each use."""

    def _names(self) -> list[str]:
        return candidate_names(_user_namespace())

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def _user_namespace() -> dict[str, Any]:
    shell = running_shell()
    return shell.user_ns if shell is not None else {}

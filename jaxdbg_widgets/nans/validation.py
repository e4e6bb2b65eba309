"""The arguments of a search, checked and split: arrays staged and named, other leaves held."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.arguments import split_arguments as core_split


def _leaf_name(path: tuple[Any, ...]) -> str:
    """``arg0``, ``arg1['w']``, ``lr`` for a leaf of ``(args, kwargs)``."""
    kind, rest = path[0], path[1:]
    head = rest[0]
    first = f"arg{head.idx}" if kind.idx == 0 else str(head.key)
    return first + jax.tree_util.keystr(tuple(rest[1:]))


BIND = "bind other values with functools.partial"


def _refuse_static(fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise ``TypeError`` when ``fun`` is a ``jit`` given an argument it takes as static:
    the search passes every argument to the program as an array."""
    numbers, names = internals.static_arguments(fun)
    static = [f"arg{i}" for i in numbers if i < len(args)] + [n for n in names if n in kwargs]
    if static:
        name = getattr(fun, "__name__", "the function")
        raise TypeError(
            f"argument {static[0]} is static in jit({name}) (static_argnums/static_argnames), "
            f"not an array: find_nonfinite passes every argument to the program ({BIND} "
            "and jit the result)"
        )


def _checked_leaves(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Every leaf of ``(args, kwargs)`` with its key path; ``ValueError`` for a deleted buffer."""
    flat = jax.tree_util.tree_flatten_with_path((args, kwargs))[0]
    for path, leaf in flat:
        deleted = getattr(leaf, "is_deleted", None)
        if callable(deleted) and deleted():
            raise ValueError(
                f"argument {_leaf_name(path)} was deleted or donated before the search; "
                "find_nonfinite reads every argument's values, so pass live arrays (call it "
                "before a function that donates them, or on copies)"
            )
    return flat


@dataclass(frozen=True)
class Arguments:
    """A call's arrays, named, and the function as a function of those arrays alone."""

    named: list[tuple[str, Any]]
    program: Callable[..., Any]
    local_names: list[str]

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(value for _, value in self.named)


def split_arguments(fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Arguments:
    """The arrays of ``fun(*args, **kwargs)`` named, and ``fun`` over those arrays alone.

    Every other leaf (an equinox module's activation function, a flag in a flax module) is
    passed to ``fun`` as it is, and the program also returns the arrays the call wrote into
    its arguments (:meth:`~jaxdbg_widgets.core.arguments.SplitArguments.program`). A jitted
    ``fun``'s static arguments are still refused: they are arrays to ``jit``'s caller but not
    to its program.
    """
    _refuse_static(fun, args, kwargs)
    flat = _checked_leaves(args, kwargs)
    split = core_split(args, kwargs)
    held = {i for i, _ in split.static}
    staged = [(path, leaf) for i, (path, leaf) in enumerate(flat) if i not in held]
    parameters = _parameter_names(fun, len(args))
    named = [(_leaf_name(path), leaf) for path, leaf in staged]
    local_names = [_local_name(path, parameters, _leaf_name(path)) for path, _ in staged]
    return Arguments(named, split.program(fun), local_names)


def _parameter_names(fun: Any, count: int) -> list[str]:
    """The names of ``fun``'s first ``count`` positional parameters, as far as it has them."""
    try:
        signature = inspect.signature(fun)
    except (TypeError, ValueError):
        return []
    names = []
    for parameter in signature.parameters.values():
        if parameter.kind not in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            break
        names.append(parameter.name)
    return names[:count]


def _local_name(path: tuple[Any, ...], parameters: list[str], fallback: str) -> str:
    """A whole argument's parameter name (``x``, ``lr``), as the debugger's locals name it;
    ``fallback`` (``arg0``, ``arg1['w']``) for a leaf inside an argument."""
    kind, rest = path[0], path[1:]
    if len(rest) != 1:
        return fallback
    if kind.idx == 1:
        return str(rest[0].key)
    return parameters[rest[0].idx] if rest[0].idx < len(parameters) else fallback

"""The arguments of a search, checked and named: live arrays only, each with a readable path."""

from __future__ import annotations

from typing import Any

import jax

from jaxdbg_widgets.core import _jax_internals as internals


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


def argument_leaves(
    args: tuple[Any, ...], kwargs: dict[str, Any], fun: Any = None
) -> list[tuple[str, Any]]:
    """Every leaf of ``(args, kwargs)`` named, in the order ``jax.make_jaxpr`` flattens them.

    Raises ``TypeError`` for a leaf JAX cannot stage as an array or an argument a jitted
    ``fun`` takes as static, and ``ValueError`` for a deleted or donated buffer, since the
    search must read every argument's values.
    """
    _refuse_static(fun, args, kwargs)
    named = []
    for path, leaf in jax.tree_util.tree_flatten_with_path((args, kwargs))[0]:
        name = _leaf_name(path)
        deleted = getattr(leaf, "is_deleted", None)
        if callable(deleted) and deleted():
            raise ValueError(
                f"argument {name} was deleted or donated before the search; find_nonfinite "
                "reads every argument's values, so pass live arrays (call it before a "
                "function that donates them, or on copies)"
            )
        if not internals.is_array_like(leaf):
            raise TypeError(
                f"argument {name} is a {type(leaf).__name__}, not an array: find_nonfinite "
                f"passes every argument to the program ({BIND})"
            )
        named.append((name, leaf))
    return named

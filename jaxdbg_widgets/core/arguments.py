"""Splitting call arguments into staged arrays and static values, and merging them back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jax

from jaxdbg_widgets.core._jax_internals import is_array_like


@dataclass(frozen=True)
class SplitArguments:
    """``(args, kwargs)`` flattened: array leaves are staged, the rest kept at trace time."""

    treedef: Any
    dynamic: tuple[Any, ...]
    static: tuple[tuple[int, Any], ...]

    def merge(self, dynamic: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Rebuild ``(args, kwargs)`` from runtime values of the staged leaves."""
        static = dict(self.static)
        runtime = iter(dynamic)
        leaves = [
            static[i] if i in static else next(runtime) for i in range(len(static) + len(dynamic))
        ]
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


def split_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> SplitArguments:
    """Flatten ``(args, kwargs)`` and separate the leaves JAX can stage from the others."""
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    dynamic, static = [], []
    for i, leaf in enumerate(leaves):
        if is_array_like(leaf):
            dynamic.append(leaf)
        else:
            static.append((i, leaf))
    return SplitArguments(treedef, tuple(dynamic), tuple(static))


def check_two_call_form(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The options-only first call of the two-call form accepts no other arguments."""
    if args or kwargs:
        raise TypeError(
            f"{name} received unexpected arguments in the two-call form: {args=} {kwargs=}"
        )

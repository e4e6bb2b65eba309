"""Splitting call arguments into staged arrays and static values, and merging them back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

    def leaves(self, dynamic: Sequence[Any]) -> list[Any]:
        """Every leaf of ``(args, kwargs)``, the staged ones taken from ``dynamic``."""
        static = dict(self.static)
        runtime = iter(dynamic)
        return [
            static[i] if i in static else next(runtime) for i in range(len(static) + len(dynamic))
        ]

    def merge(self, dynamic: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Rebuild ``(args, kwargs)`` from runtime values of the staged leaves."""
        return jax.tree_util.tree_unflatten(self.treedef, self.leaves(dynamic))

    def program(self, fun: Callable[..., Any]) -> Callable[..., Any]:
        """``fun`` as a function of the staged leaves alone, the others passed as they are
        (as ``eqx.filter_jit`` does). It returns ``fun``'s result, paired with the arrays the
        call wrote into its arguments when there are any: a stateful step (a flax nnx model
        and optimizer updated in place) writes its results there, not only in what it
        returns, and they must not be taken for dead code."""

        def program(*dynamic: Any) -> Any:
            leaves = self.leaves(dynamic)
            args, kwargs = jax.tree_util.tree_unflatten(self.treedef, leaves)
            result = fun(*args, **kwargs)
            written = _written(leaves, (args, kwargs))
            return (result, written) if written else result

        return program


def _written(before: list[Any], arguments: Any) -> list[Any]:
    """The array leaves ``arguments`` holds after a call that were not there before it."""
    held = {id(leaf) for leaf in before}
    after = jax.tree_util.tree_leaves(arguments)
    return [leaf for leaf in after if id(leaf) not in held and is_array_like(leaf)]


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


def stage_or_defer(
    name: str,
    stage: Callable[..., None],
    first: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Callable[..., None] | None:
    """``stage(first, *args, **kwargs)`` now when ``first`` is given; else ``stage`` itself, the
    second half of the two-call form, whose options-only first call takes no other arguments."""
    if first is not None:
        stage(first, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(
            f"{name} received unexpected arguments in the two-call form: {args=} {kwargs=}"
        )
    return stage

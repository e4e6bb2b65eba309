"""What ``memory_map`` can be given, turned into ``(path, leaf)`` pairs and skip reasons.

A pytree is flattened with paths (``jax.tree_util.keystr``); ``None`` means every live array in
the process. A leaf counts when it has a shape, a dtype and a sharding (``jax.Array``,
``jax.ShapeDtypeStruct`` with a sharding, or a stand-in); everything else gets a skip reason.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

DELETED = "deleted or donated"
TRACER = "tracer (inside a transformation: map outside jit or map the lowered program)"
NOT_ARRAY = "not a device array"
NO_SHARDING = "shape without a sharding"
BAD_LEAF = "sharding could not be read"


def pytree_leaves(tree: Any) -> Iterator[tuple[str, Any]]:
    """``(path, leaf)`` for every leaf of ``tree`` (``None`` is an empty subtree, as in JAX)."""
    import jax

    flat, _ = jax.tree_util.tree_flatten_with_path(tree)
    keystr = jax.tree_util.keystr
    for path, leaf in flat:
        yield (keystr(path) if path else "(root)"), leaf


NAMED_LEAF_LIMIT = 100_000
"""How many leaves of a namespace's containers are read to name live arrays."""


def live_leaves(namespace: Mapping[str, Any] | None = None) -> Iterator[tuple[str, Any]]:
    """Every array alive in this process (``jax.live_arrays()``), named by the variable of
    ``namespace`` that holds it (``params['w']``) where one does, else numbered in JAX's order."""
    import jax

    names = variable_names(namespace) if namespace else {}
    for i, arr in enumerate(jax.live_arrays()):
        yield names.get(id(arr), f"live[{i}]"), arr


def variable_names(namespace: Mapping[str, Any]) -> dict[int, str]:
    """``id(array) -> name`` for the arrays a namespace holds: the first of
    :func:`all_variable_names`."""
    return {key: names[0] for key, names in all_variable_names(namespace).items()}


def all_variable_names(namespace: Mapping[str, Any]) -> dict[int, list[str]]:
    """``id(array) -> names`` for the arrays a namespace holds: its variables that are arrays
    first, then the leaves of its dicts, lists and tuples (``params['w']``), up to
    :data:`NAMED_LEAF_LIMIT` leaves; names starting with ``_`` are left out."""
    import jax

    visible = sorted((name, value) for name, value in namespace.items() if name[:1] != "_")
    names: dict[int, list[str]] = {}
    for name, value in visible:
        if isinstance(value, jax.Array):
            names.setdefault(id(value), []).append(name)
    budget = NAMED_LEAF_LIMIT
    for name, value in visible:
        if budget <= 0:
            break
        if isinstance(value, dict | list | tuple):
            flat, _ = jax.tree_util.tree_flatten_with_path(value)
            budget -= len(flat)
            for path, leaf in flat:
                if isinstance(leaf, jax.Array):
                    names.setdefault(id(leaf), []).append(name + jax.tree_util.keystr(path))
    return names


def skip_reason(leaf: Any) -> str | None:
    """Why ``leaf`` holds no device memory we can count, or None when it does."""
    import jax

    if isinstance(leaf, jax.core.Tracer):
        return TRACER
    deleted = getattr(leaf, "is_deleted", None)
    if deleted is not None:
        try:
            if deleted():
                return DELETED
        except Exception:
            return DELETED
    if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
        return NOT_ARRAY
    try:
        sharding = getattr(leaf, "sharding", None)
    except Exception:
        return BAD_LEAF
    if sharding is None:
        return NO_SHARDING if isinstance(leaf, jax.ShapeDtypeStruct) else NOT_ARRAY
    if not hasattr(sharding, "devices_indices_map"):
        return NOT_ARRAY
    return None


def holds_buffer(leaf: Any) -> bool:
    """Whether ``leaf`` is an array with device buffers of its own (not a planned shape), so a
    second path to the same object holds no further bytes."""
    import jax

    return isinstance(leaf, jax.Array)

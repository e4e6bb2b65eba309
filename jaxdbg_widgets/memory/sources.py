"""What ``memory_map`` can be given, turned into ``(path, leaf)`` pairs and skip reasons.

A pytree is flattened with paths (``jax.tree_util.keystr``); ``None`` means every live array in
the process. A leaf counts when it has a shape, a dtype and a sharding (``jax.Array``,
``jax.ShapeDtypeStruct`` with a sharding, or a stand-in); everything else gets a skip reason.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def live_leaves() -> Iterator[tuple[str, Any]]:
    """Every array alive in this process (``jax.live_arrays()``), numbered in JAX's order."""
    import jax

    for i, arr in enumerate(jax.live_arrays()):
        yield f"live[{i}]", arr


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

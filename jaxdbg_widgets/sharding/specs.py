"""What the sharding layout reads from its input: the shape and sharding of an array, a
``jax.ShapeDtypeStruct`` or a shape, the index map, and the mesh and partition spec behind it.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple


def shape_and_sharding(target: Any, sharding: Any, dtype: Any) -> tuple[Any, Any, Any]:
    """``(shape, sharding, dtype)`` from a shape and a sharding, or from an array alone, so every
    view takes an array as ``visualize_array_sharding`` does; anything else is a TypeError."""
    if not _is_array(target):
        if sharding is None:
            raise TypeError(
                "expected an array with a sharding (a jax.Array, or a jax.ShapeDtypeStruct "
                "with one), or a shape and a sharding; got "
                f"{type(target).__name__} {_short(target)} and no sharding"
            )
        return target, sharding, dtype
    if _is_tracer(target):
        raise TypeError(
            "got a traced array: its sharding is known only once the function is compiled; "
            "inside jit use jaxdbg_widgets.visualize_array_sharding or inspect_array_sharding"
        )
    if sharding is None:
        sharding = getattr(target, "sharding", None)
    if sharding is None:
        raise TypeError(
            f"a {type(target).__name__} has no sharding: pass a jax.Array, a "
            "jax.ShapeDtypeStruct with a sharding, or (shape, sharding)"
        )
    return tuple(target.shape), sharding, target.dtype if dtype is None else dtype


def check_rank(sharding: Any, shape: tuple[int, ...]) -> None:
    """A spec naming more dimensions than the shape has is a clear ValueError (JAX raises an
    IndexError from deep inside)."""
    spec = getattr(sharding, "spec", None)
    named = len(spec) if hasattr(spec, "__len__") else 0
    if named > len(shape):
        raise ValueError(
            f"the sharding's spec {spec} names {named} dimensions, but the shape {shape} "
            f"has {len(shape)}"
        )


def _is_array(value: Any) -> bool:
    """Whether ``value`` is an array (it has a shape and a dtype), not a shape to draw."""
    return hasattr(value, "shape") and hasattr(value, "dtype")


def _is_tracer(value: Any) -> bool:
    """Whether ``value`` is a JAX tracer (JAX is imported already if it is one)."""
    core = sys.modules.get("jax.core")
    return core is not None and isinstance(value, core.Tracer)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def checked_shape(shape: Sequence[int]) -> tuple[int, ...]:
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"shape must be a sequence of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"shape dimensions must be non-negative, got {dims}")
    return dims


def indices_map(sharding: Any, shape: tuple[int, ...]) -> dict[Any, Any]:
    method = getattr(sharding, "devices_indices_map", None)
    if method is None:
        raise TypeError(
            f"expected a jax.sharding.Sharding (anything with devices_indices_map), "
            f"got {type(sharding).__name__}"
        )
    try:
        return dict(method(shape))
    except (NotImplementedError, AssertionError, ValueError):
        plain = _mappable(sharding)
        if plain is None:
            raise
        return dict(plain.devices_indices_map(shape))


def _mappable(sharding: Any) -> Any:
    """The sharding with what JAX cannot map left out, None when nothing is left out.

    JAX (0.7 to 0.12) maps no indices for a spec with unreduced axes, nor for a mesh with
    Manual axes (JAX 0.7 not for reduced axes either), yet each device holds one block all the
    same: the index map is the one with the spec's unreduced and reduced axes dropped and
    Manual axes read as Auto, and the layout keeps ``unreduced``, ``reduced`` and
    ``axis_types`` to say the holders are partial results or blocks of their own, not copies.
    """
    spec, mesh = getattr(sharding, "spec", None), getattr(sharding, "mesh", None)
    beyond = getattr(spec, "unreduced", None) or getattr(spec, "reduced", None)
    types = tuple(getattr(mesh, "axis_types", None) or ())
    manual = [getattr(t, "name", None) == "Manual" for t in types]
    if not (beyond or any(manual)) or not hasattr(sharding, "update"):
        return None
    changes: dict[str, Any] = {}
    if beyond:
        changes["spec"] = type(spec)(*_spec_entries(spec))
    if any(manual):
        auto = type(types[0]).Auto
        changes["mesh"] = _with_axis_types(
            mesh, tuple(auto if m else t for m, t in zip(manual, types, strict=True))
        )
    return sharding.update(**changes)


def _with_axis_types(mesh: Any, types: tuple[Any, ...]) -> Any:
    """``mesh`` with other axis types; JAX before 0.8 has no ``Mesh.update``, only the
    constructor."""
    if hasattr(mesh, "update"):
        return mesh.update(axis_types=types)
    return type(mesh)(mesh.devices, mesh.axis_names, axis_types=types)


def mesh_and_spec(
    sharding: Any,
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, ...] | None, ...] | None]:
    mesh = getattr(sharding, "mesh", None)
    spec = getattr(sharding, "spec", None)
    if mesh is None or spec is None:
        return (), None
    axes = tuple((str(name), int(size)) for name, size in dict(mesh.shape).items())
    return axes, tuple(_spec_entry(entry) for entry in _spec_entries(spec))


def _spec_entries(spec: Any) -> tuple[Any, ...]:
    """A spec's per-dimension entries: JAX 0.12 refuses to iterate a spec with unreduced or
    reduced axes and has ``partitions``, which JAX before 0.8 lacks."""
    entries = getattr(spec, "partitions", None)
    return tuple(spec if entries is None else entries)


class _Semantics(NamedTuple):
    """What a mesh and spec say beyond the layout: axis types and unreduced/reduced axes."""

    axis_types: tuple[str, ...]
    unreduced: tuple[str, ...]
    reduced: tuple[str, ...]
    unreduced_kind: str


NO_SEMANTICS = _Semantics((), (), (), "")


def spec_semantics(sharding: Any) -> _Semantics:
    """The mesh's axis types and the spec's unreduced and reduced axes, read from their public
    attributes where this JAX has them (``Mesh.axis_types``; ``PartitionSpec.unreduced``,
    ``.reduced`` and, from JAX 0.12, ``.unreduced_kind``), empty where it has not."""
    types = getattr(sharding.mesh, "axis_types", None) or ()
    spec = sharding.spec
    unreduced = _axis_names(getattr(spec, "unreduced", None))
    kind = getattr(spec, "unreduced_kind", None)
    if kind is None:
        kind = "sum" if unreduced else ""
    return _Semantics(
        axis_types=tuple(str(getattr(t, "name", t)) for t in types),
        unreduced=unreduced,
        reduced=_axis_names(getattr(spec, "reduced", None)),
        unreduced_kind=str(getattr(kind, "name", kind)),
    )


def _axis_names(axes: Any) -> tuple[str, ...]:
    """A set of mesh axis names, sorted so every view lists them alike."""
    return tuple(sorted(map(str, axes or ())))


def _spec_entry(entry: Any) -> tuple[str, ...] | None:
    if entry is None:
        return None
    if isinstance(entry, str):
        return (entry,)
    if isinstance(entry, tuple | list):
        return tuple(str(name) for name in entry)
    return (str(entry),)


def spec_entry_text(entry: tuple[str, ...] | None) -> str:
    if entry is None:
        return "None"
    if len(entry) == 1:
        return repr(entry[0])
    return "(" + ", ".join(repr(name) for name in entry) + ")"


def dtype_info(dtype: Any) -> tuple[str | None, int | None]:
    """The dtype's name and item size; JAX's extended dtypes (typed PRNG keys such as
    ``key<fry>``) are not numpy dtypes but carry both."""
    if dtype is None:
        return None, None
    import numpy as np

    try:
        resolved = np.dtype(dtype)
    except TypeError:
        itemsize = getattr(dtype, "itemsize", None)
        if itemsize is None:
            raise
        return str(dtype), int(itemsize)
    return str(resolved), int(resolved.itemsize)

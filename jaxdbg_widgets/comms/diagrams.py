"""The sharding diagrams of one collective: its operand and its result, on the program's mesh.

A collective moves data only along the mesh axes it spans, so each picture shards the buffer
along those axes alone (the other axes appear as replicas): an all-gather's operand is split
along its gather dimension and its result whole; a reduce-scatter the other way round; an
all-reduce's operand holds partial sums. The pictures are drawn by the sharding layer.
"""

from __future__ import annotations

import math
from typing import Any

from jaxdbg_widgets.comms.model import Collective, CommunicationModel
from jaxdbg_widgets.sharding.layout import sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.view import view_model

PER_LINE = 4


def line_diagrams(comms: CommunicationModel, line: int) -> dict[str, Any]:
    """The diagrams of (up to :data:`PER_LINE`) collectives of one line, tagged with the line."""
    group = comms.lines[line]
    items = [collective_diagrams(comms, c) for c in comms.on_line(group)[:PER_LINE]]
    more = len(group.collectives) - len(items)
    return {"line": line, "items": items, "more": max(more, 0)}


def collective_diagrams(comms: CommunicationModel, c: Collective) -> dict[str, Any]:
    """``{collective, title, note, operand, result}``; a picture is None where none can be drawn."""
    title = f"{c.kind} {c.name}: {c.operand or '?'} → {c.result}"
    mesh = comms.mesh.mesh if comms.mesh is not None else None
    plan = _plan(c)
    if plan is None:
        return _item(c, title, _why_not(c), None, None)
    if mesh is None:
        return _item(c, title, "no mesh object (read from text): no diagram", None, None)
    if not c.span.axes or not c.span.whole:
        return _item(c, title, "its groups are not whole mesh axes: no diagram", None, None)
    (operand_shape, operand_dim, operand_note), (result_shape, result_dim, result_note) = plan
    axes = c.span.axes
    size = math.prod(
        dict(zip(comms.mesh.axis_names, comms.mesh.shape, strict=True))[a] for a in axes
    )
    try:
        operand = _picture(mesh, operand_shape, operand_dim, axes, size, c.dtype)
        result = _picture(mesh, result_shape, result_dim, axes, size, c.dtype)
    except (ValueError, TypeError) as err:
        return _item(c, title, f"no diagram: {err}", None, None)
    note = f"operand: {operand_note}; result: {result_note}; other mesh axes drawn as replicas"
    return _item(c, title, note, operand, result)


def _plan(c: Collective) -> Any:
    """``((shape, split dim or None, words) for operand, same for result)``, or None."""
    if not c.result_dims:
        return None
    axes = c.span.label
    d = c.dimension
    if c.kind == "all-gather" and d is not None:
        return (c.result_dims, d, f"split along dim {d} over {axes}"), (
            c.result_dims,
            None,
            "whole",
        )
    if c.kind == "reduce-scatter" and d is not None:
        source = c.operand_dims or _times(c.result_dims, d, c.group_size)
        return (source, None, f"partial sums over {axes}"), (source, d, f"split along dim {d}")
    if c.kind == "all-reduce":
        return (c.result_dims, None, f"partial sums over {axes}"), (c.result_dims, None, "summed")
    if c.kind == "all-to-all" and d is not None:
        return (c.result_dims, d, f"split along dim {d}"), (c.result_dims, d, "blocks exchanged")
    return None


def _why_not(c: Collective) -> str:
    if c.kind == "collective-permute":
        return "each source sends its whole buffer to its target: layout unchanged"
    return "no single array buffer or dimension to draw"


def _times(dims: tuple[int, ...], d: int, n: int) -> tuple[int, ...]:
    return tuple(v * n if i == d else v for i, v in enumerate(dims))


def _picture(
    mesh: Any, shape: tuple[int, ...], dim: int | None, axes: tuple[str, ...], size: int, dtype: str
) -> dict[str, Any]:
    from jax.sharding import NamedSharding, PartitionSpec

    entries: list[Any] = [None] * len(shape)
    if dim is not None:
        if shape[dim] % size:
            raise ValueError(f"dim {dim} of {shape} does not split {size} ways")
        entries[dim] = axes[0] if len(axes) == 1 else axes
    sharding = NamedSharding(mesh, PartitionSpec(*entries))
    layout = sharding_layout(shape, sharding, dtype=_numpy_dtype(dtype))
    return view_model(layout, RenderOptions())


_NUMPY = {
    "pred": "bool",
    "s8": "int8",
    "s16": "int16",
    "s32": "int32",
    "s64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "c64": "complex64",
    "c128": "complex128",
}


def _numpy_dtype(dtype: str) -> Any:
    """The numpy dtype of an HLO element type (bf16 through JAX's), None for others."""
    import numpy as np

    if dtype == "bf16":
        import jax.numpy as jnp

        return jnp.bfloat16
    name = _NUMPY.get(dtype)
    return np.dtype(name) if name else None


def _item(
    c: Collective,
    title: str,
    note: str,
    operand: dict[str, Any] | None,
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "collective": c.index,
        "title": title,
        "note": note,
        "operand": operand,
        "result": result,
    }

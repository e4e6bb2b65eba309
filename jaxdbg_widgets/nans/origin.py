"""One equation's facts as the report keeps them: user lines, direction, shards, batch, values."""

from __future__ import annotations

import linecache
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import is_internal_file
from jaxdbg_widgets.nans.program import ShardContext, bad_rows
from jaxdbg_widgets.nans.report import Batch, Origin, Shard, SourceLine
from jaxdbg_widgets.nans.summary import host_value, is_inexact, summarize

PARAM_TEXT = 40
"""Longest parameter value shown; longer ones are cut with an ellipsis."""


def source_lines(eqn: Any) -> list[SourceLine]:
    """The user frames an equation was traced at, innermost first (the project's frame rule)."""
    return [
        SourceLine(filename, lineno, function, linecache.getline(filename, lineno))
        for filename, lineno, function in internals.equation_frames(eqn)
        if not is_internal_file(filename)
    ]


def _short(value: Any) -> str | None:
    """A parameter's value as short text; ``None`` for sub-programs, functions and unset
    parameters (which JAX versions add and drop, such as ``accuracy`` and ``out_dtype``)."""
    if value is None or callable(value) or hasattr(value, "eqns") or hasattr(value, "jaxpr"):
        return None
    if isinstance(value, tuple) and any(hasattr(v, "eqns") or hasattr(v, "jaxpr") for v in value):
        return None
    text = str(value)
    return text if len(text) <= PARAM_TEXT else text[: PARAM_TEXT - 1] + "…"


def short_params(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The parameters worth showing, each as short text, sub-programs left out."""
    shown = ((k, _short(v)) for k, v in sorted(params.items()))
    return tuple((k, v) for k, v in shown if v is not None)


def batch_of(stack: str, outs: Sequence[Any], axes: Sequence[Any]) -> Batch | None:
    """Under ``vmap``, the batch elements of the bad ``outs`` along each one's own batch axis
    (``axes``, as the trace noted them); not known where an axis was not noted, never guessed."""
    if "vmap" not in stack:
        return None
    elements: set[int] = set()
    axis_named: int | None = None
    for out, axis in zip(outs, axes, strict=True):
        if out is None or not is_inexact(out) or np.isfinite(np.asarray(out)).all():
            continue
        if axis is internals.UNKNOWN_AXIS or (axis is not None and axis >= np.ndim(out)):
            return Batch(None, None)
        if axis is None:
            return Batch(None, ())  # a bad value shared by every element of the batch
        bad = np.moveaxis(~np.isfinite(np.asarray(out)), axis, 0)
        elements.update(int(i) for i in np.flatnonzero(bad.reshape(bad.shape[0], -1).any(axis=1)))
        axis_named = axis if axis_named is None else axis_named
    return Batch(axis_named, tuple(sorted(elements))) if axis_named is not None else None


def _shards(shard: ShardContext, devices: list[int]) -> tuple[Shard, ...]:
    mesh = shard.mesh
    flat = list(mesh.devices.flat)
    return tuple(
        Shard(
            position,
            int(flat[position].id),
            tuple(
                (axis, int(i))
                for axis, i in zip(
                    mesh.axis_names, np.unravel_index(position, mesh.devices.shape), strict=True
                )
            ),
        )
        for position in devices
    )


def _local(value: Any, row: int | None) -> Any:
    """``value`` on the host, on the device at ``row`` in a shard context (keys stay keys)."""
    value = host_value(value)
    return value[row] if row is not None else value


def build_origin(
    eqn: Any,
    input_names: list[str],
    ins: list[Any],
    outs: list[Any],
    path: tuple[str, ...],
    shard: ShardContext | None,
    devices: list[int],
    rule: str | None,
    kind: str,
    scope: tuple[str, ...] = (),
    caller: tuple[SourceLine, ...] = (),
    batch_axes: Sequence[Any] = (),
) -> Origin:
    """The report's origin for ``eqn``; in a shard context, values are read on its first bad device.

    ``scope`` holds the name stacks of the equations around it (``transpose(jvp())`` of a
    backward-pass ``scan``), which its own stack, relative to theirs, does not repeat.
    ``caller`` are the user lines of the equation around it, named where JAX kept no user
    frame for ``eqn`` itself (inside ``jnp.where``'s own ``jit``). ``batch_axes`` are the
    batch axes of its outputs as ``vmap`` traced them (``internals.batch_axis``).
    """
    batch_axes = list(batch_axes) or [internals.UNKNOWN_AXIS] * len(outs)
    row = devices[0] if shard is not None and devices else None
    local_ins = [_local(v, row) for v in ins]
    local_outs = [None if v is None else _local(v, row) for v in outs]
    output_names = [f"out{i}" for i in range(len(outs))]
    values = dict(zip(input_names, local_ins, strict=True))
    values.update((n, v) for n, v in zip(output_names, local_outs, strict=True) if v is not None)
    notes = []
    looked_for = "NaN" if kind == "nan" else "NaN or Inf"
    if any(bad_rows(v, kind, rows=False) for v in local_ins):
        notes.append(f"an input already held a {looked_for}: a constant brought it in")
    stack = " ".join((*scope, internals.name_stack(eqn)))
    direction = "backward" if "transpose" in stack else "forward"
    if direction == "forward" and "jvp" in stack:
        notes.append("computed for the derivative (jvp) of this line")
    frames = tuple(source_lines(eqn))
    if not frames and caller:
        frames = caller
        notes.append("made inside the JAX function this line calls (JAX kept no user frame for it)")
    return Origin(
        primitive=eqn.primitive.name,
        params=short_params(eqn.params),
        frames=frames,
        direction=direction,
        path=path,
        inputs=tuple(summarize(n, v) for n, v in zip(input_names, local_ins, strict=True)),
        outputs=tuple(
            summarize(n, v) for n, v in zip(output_names, local_outs, strict=True) if v is not None
        ),
        shards=_shards(shard, devices) if shard is not None else (),
        shard_count=shard.mesh.devices.size if shard is not None else 0,
        batch=None if shard is not None else batch_of(stack, local_outs, batch_axes),
        rule=rule,
        notes=tuple(notes),
        forward_line=frames[0] if direction == "backward" and frames else None,
        values=values,
    )

"""The origin of a NaN made in an unjitted ``shard_map``: JAX checks each step there as it
runs, so the step whose check failed is the origin, read on each device's block."""

from __future__ import annotations

import linecache
import sys
from typing import Any

import jax
import numpy as np

from jaxdbg_widgets.core._jax_internals import ShardMapStep
from jaxdbg_widgets.core.callsite import is_internal
from jaxdbg_widgets.nans.origin import short_params
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin, Shard, SourceLine
from jaxdbg_widgets.nans.summary import host_value, is_inexact, summarize

STEP_NOTE = "JAX checked this shard_map step as it ran: nothing was searched or run again"
RERUN_NOTE = "JAX checked this shard_map step in its de-optimized re-run of the jitted call"


def step_report(step: ShardMapStep, outs: Any, again: bool = False) -> NonfiniteReport | None:
    """The report for a step whose ``outs`` failed the check; ``None`` where no block is bad.
    ``again`` when the step ran in JAX's de-optimized re-run of a jitted call."""
    leaves = jax.tree_util.tree_leaves(outs)
    mesh = next((m for m in map(_mesh, leaves) if m is not None), None)
    devices = list(mesh.devices.flat) if mesh is not None else _devices(leaves)
    nan_only = not jax.config.jax_debug_infs
    bad = [
        position
        for position, device in enumerate(devices)
        if any(_is_bad(_block(leaf, device), nan_only) for leaf in leaves)
    ]
    if not bad:
        return None
    first = devices[bad[0]]
    input_names = [f"in{i}" for i in range(len(step.inputs))]
    output_names = [f"out{i}" for i in range(len(leaves))]
    ins = [_block(value, first) for value in step.inputs]
    results = [_block(leaf, first) for leaf in leaves]
    frames = _user_frames()
    primitive, params = _equation(step)
    origin = Origin(
        primitive=primitive,
        params=short_params(params),
        frames=frames,
        direction="forward",
        path=(),
        inputs=tuple(map(summarize, input_names, ins)),
        outputs=tuple(map(summarize, output_names, results)),
        shards=tuple(_shard(mesh, devices, position) for position in bad),
        shard_count=len(devices),
        notes=(RERUN_NOTE if again else STEP_NOTE,),
        values=dict(zip(input_names + output_names, ins + results, strict=True)),
    )
    function = frames[0].function if frames else "shard_map"
    return NonfiniteReport(function, 0, 0, origin)


def _equation(step: ShardMapStep) -> tuple[str, dict[str, Any]]:
    """The primitive and parameters to name: those of the one equation a step's ``jit`` holds
    (``jnp.sqrt`` runs as ``jit(sqrt)``), else the step's own (``jit(loss)`` for a user's jit)."""
    closed = step.params.get("jaxpr") if step.primitive in ("jit", "pjit") else None
    eqns = getattr(getattr(closed, "jaxpr", None), "eqns", ())
    if len(eqns) == 1:
        return eqns[0].primitive.name, dict(eqns[0].params)
    if closed is not None:
        return f"{step.primitive}({step.params.get('name', '?')})", {}
    return step.primitive, step.params


def _mesh(leaf: Any) -> Any:
    return getattr(getattr(leaf, "sharding", None), "mesh", None)


def _devices(leaves: list[Any]) -> list[Any]:
    """The devices of the outputs' blocks, in the order JAX holds them."""
    seen = [s.device for leaf in leaves for s in getattr(leaf, "addressable_shards", ())]
    return list(dict.fromkeys(seen))


def _block(value: Any, device: Any) -> Any:
    """``value``'s local value on ``device``: an unjitted shard_map holds each value stacked
    along a leading axis of one block per device; a constant is the whole value."""
    for shard in getattr(value, "addressable_shards", ()):
        if shard.device == device:
            block = host_value(shard.data)
            return block[0] if block.ndim and block.shape[0] == 1 else block
    return host_value(value)


def _is_bad(block: Any, nan_only: bool) -> bool:
    if not is_inexact(block):
        return False
    return bool(np.isnan(block).any() if nan_only else (~np.isfinite(block)).any())


def _shard(mesh: Any, devices: list[Any], position: int) -> Shard:
    """The device at ``position`` with its mesh coordinates (none where there is no mesh)."""
    device = devices[position]
    if mesh is None:
        return Shard(position, int(device.id), ())
    index = np.unravel_index(position, mesh.devices.shape)
    return Shard(
        position, int(device.id), tuple(zip(mesh.axis_names, map(int, index), strict=True))
    )


def _user_frames() -> tuple[SourceLine, ...]:
    """The user's frames on the stack now, innermost first: the step's line and its callers."""
    lines = []
    frame = sys._getframe(1)
    while frame is not None:
        if not is_internal(frame):
            filename, lineno = frame.f_code.co_filename, frame.f_lineno
            text = linecache.getline(filename, lineno)
            lines.append(SourceLine(filename, lineno, frame.f_code.co_name, text))
        frame = frame.f_back
    return tuple(lines)

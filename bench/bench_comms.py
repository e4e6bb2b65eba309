"""The communication map against the compile it reads, timed in the same run.

The program is an unrolled chain of matmul layers over a 32 x 64 mesh of 2,048 simulated CPU
devices (the most XLA's CPU backend compiles for), compiled from abstract arguments so nothing
runs; each layer forces an all-gather and an all-reduce, so the module holds more than 10,000
HLO instructions and 1,000 collectives. Building the map (the program's text and facts, the
reader, the model) is timed against XLA's compile of the same program. A 4,096-device module
is read from synthetic saved text, against a plain regular-expression scan of its collectives,
and both maps' widget states are weighed.

``python -m bench comms`` runs every row; ``python -m bench.bench_comms [CASE ...]`` runs some
(``build``, ``cpu``, ``state``, ``text4096``, ``state4096``). The device count is set before
JAX loads, so run it in its own interpreter (``python -m bench`` does).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import sys
import time
from collections.abc import Callable
from typing import Any

DEVICES = 2048
MESH = (("data", 32), ("model", 64))
LAYERS = 520
WIDTH = 128
BUILD_LIMIT_S = 1.0
COMPILE_SHARE = 0.10
STATE_LIMIT_KB = 200.0
TEXT_DEVICES = 4096
TEXT_COLLECTIVES = 1200

_FLAG = f"--xla_force_host_platform_device_count={DEVICES}"
os.environ["XLA_FLAGS"] = (
    re.sub(r"--xla_force_host_platform_device_count=\d+", "", os.environ.get("XLA_FLAGS", ""))
    + f" {_FLAG}"
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from bench.report import Row, format_table, race, timed  # noqa: E402


@functools.cache
def _compiled() -> tuple[Any, float, float, tuple[Any, ...]]:
    """The chain compiled once: ``(compiled, compile wall seconds, compile CPU seconds, args)``."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    from jaxdbg_widgets.comms.program import compile_stage

    if jax.device_count() != DEVICES:
        raise SystemExit(f"bench_comms needs {DEVICES} devices before JAX loads; run it alone")
    types = getattr(jax.sharding, "AxisType", None)
    names = tuple(name for name, _ in MESH)
    sizes = tuple(size for _, size in MESH)
    kwargs = {"axis_types": (types.Auto,) * 2} if types is not None else {}
    mesh = jax.make_mesh(sizes, names, **kwargs)

    def put(shape: tuple[int, ...], *spec: Any) -> Any:
        return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, P(*spec)))

    def keep(x: Any, *spec: Any) -> Any:
        return jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P(*spec)))

    def chain(weights: list[tuple[Any, Any]], x: Any) -> Any:
        for w_in, w_out in weights:
            h = jnp.tanh(x @ w_in)
            gathered = keep(h, "data", None)  # an all-gather over 'model'
            x = keep(jnp.tanh(h @ w_out) + gathered, "data", None)  # an all-reduce over 'model'
        return x

    weights = [
        (put((WIDTH, WIDTH), None, "model"), put((WIDTH, WIDTH), "model", None))
        for _ in range(LAYERS)
    ]
    x = put((64, WIDTH), "data", None)
    args = (weights, x)
    lowered = jax.jit(chain).lower(*args)
    cpu = time.process_time()
    compiled, _, seconds, _ = compile_stage(lowered, args, {})
    assert seconds is not None
    return compiled, seconds, time.process_time() - cpu, args


def _build(compiled: Any, args: tuple[Any, ...]) -> Any:
    from jaxdbg_widgets.comms.api import program_map
    from jaxdbg_widgets.comms.program import read_program

    return program_map(read_program(compiled, args, {}))


def _build_row() -> Row:
    compiled, compile_s, _, args = _compiled()
    comms = _build(compiled, args)
    ours = timed(lambda: _build(compiled, args), repeat=3)
    count = len(comms.collectives)
    assert count >= 1000 and comms.instructions >= 10_000 and not comms.unread
    return Row(
        f"comms map, {comms.instructions:,} HLO instructions, {count:,} collectives, "
        f"{DEVICES:,} devices",
        ours,
        compile_s,
        "s",
        "XLA compile of the same program, same run",
        f"< {BUILD_LIMIT_S:g} s and <= {COMPILE_SHARE:.0%} of compile",
        ours < BUILD_LIMIT_S and ours <= COMPILE_SHARE * compile_s,
    )


def _build_cpu_row() -> Row:
    """The same build in CPU seconds of this process, which a busy machine does not inflate."""
    compiled, _, compile_cpu, args = _compiled()
    build = {"map": lambda: _build(compiled, args)}
    ours = race(build, rounds=3, clock=time.process_time)["map"]
    return Row(
        f"comms map CPU time, {DEVICES:,} devices",
        ours,
        compile_cpu,
        "s",
        "XLA compile CPU time (all its threads), same run",
        f"< {BUILD_LIMIT_S:g} s and <= {COMPILE_SHARE:.0%} of compile",
        ours < BUILD_LIMIT_S and ours <= COMPILE_SHARE * compile_cpu,
    )


def _state_kb(comms: Any) -> float:
    """The widget's synced state as the kernel sends it: compact JSON, in KB."""
    widget = comms.widget()
    state = {"view": widget.view, "line": widget.line, "line_view": widget.line_view}
    return len(json.dumps(state, separators=(",", ":"))) / 1000


def _state_row() -> Row:
    compiled, _, _, args = _compiled()
    ours = _state_kb(_build(compiled, args))
    text_kb = len(compiled.as_text()) / 1000
    return Row(
        f"comms widget state JSON, {DEVICES:,} devices",
        ours,
        text_kb,
        "KB",
        "the compiled HLO text",
        f"< {STATE_LIMIT_KB:g} KB",
        ours < STATE_LIMIT_KB,
    )


def _text_state_row() -> Row:
    from jaxdbg_widgets.comms.api import communication_map_from_text

    text = synthetic_text()
    side = int(TEXT_DEVICES**0.5)
    comms = communication_map_from_text(text, axis_names=("data", "model"), mesh_shape=(side, side))
    ours = _state_kb(comms)
    return Row(
        f"comms widget state JSON, saved text, {TEXT_DEVICES:,} devices",
        ours,
        len(text) / 1000,
        "KB",
        "the saved HLO text",
        f"< {STATE_LIMIT_KB:g} KB",
        ours < STATE_LIMIT_KB,
    )


def synthetic_text(devices: int = TEXT_DEVICES, collectives: int = TEXT_COLLECTIVES) -> str:
    """A module over ``devices`` partitions with iota-grouped collectives and filler instructions."""
    side = int(devices**0.5)
    forms = [f"[{side},{side}]<=[{devices}]", f"[{side},{side}]<=[{side},{side}]T(1,0)"]
    lines = [
        f"HloModule synthetic, num_partitions={devices}",
        "",
        "FileNames",
        '1 "/u/model.py"',
        "",
        "FunctionNames",
        '1 "step"',
        "",
        "FileLocations",
        *(
            f"{i} {{file_name_id=1 function_name_id=1 line={i} end_line={i} column=1 end_column=1}}"
            for i in range(1, 41)
        ),
        "",
        "StackFrames",
        *(f"{i} {{file_location_id={i} parent_frame_id=1}}" for i in range(1, 41)),
        "",
        "ENTRY %main (p: f32[64,1024]) -> f32[64,1024] {",
        "  %p = f32[64,1024]{1,0} parameter(0)",
    ]
    for i in range(collectives):
        frame = 1 + i % 40
        lines.append(
            f"  %f.{i} = f32[64,1024]{{1,0}} tanh(%p), metadata={{stack_frame_id={frame}}}"
        )
        lines.append(f"  %g.{i} = f32[64,1024]{{1,0}} add(%f.{i}, %p)")
        lines.append(
            f"  %ar.{i} = f32[64,1024]{{1,0}} all-reduce(%g.{i}), channel_id={i + 1}, "
            f"replica_groups={forms[i % 2]}, use_global_device_ids=true, to_apply=%add, "
            f'metadata={{op_name="jit(step)/psum" stack_frame_id={frame}}}'
        )
    lines += ["  ROOT %r = f32[64,1024]{1,0} copy(%p)", "}"]
    return "\n".join(lines)


def _text_row() -> Row:
    from jaxdbg_widgets.comms.api import communication_map_from_text

    text = synthetic_text()
    side = int(TEXT_DEVICES**0.5)
    names, shape = ("data", "model"), (side, side)
    comms = communication_map_from_text(text, axis_names=names, mesh_shape=shape)
    assert len(comms.collectives) == TEXT_COLLECTIVES and len(comms.device_sent) == TEXT_DEVICES
    ours = timed(
        lambda: communication_map_from_text(text, axis_names=names, mesh_shape=shape), repeat=3
    )
    pattern = re.compile(r"^\s*%\S+ = \S+ (all-reduce|all-gather|reduce-scatter)\(", re.M)
    peer = timed(lambda: pattern.findall(text), repeat=3)
    return Row(
        f"comms map from saved text, {TEXT_COLLECTIVES:,} collectives, {TEXT_DEVICES:,} devices",
        ours,
        peer,
        "s",
        "a regular expression listing the collective lines",
        f"< {BUILD_LIMIT_S:g} s",
        ours < BUILD_LIMIT_S,
    )


CASES: dict[str, Callable[[], Row]] = {
    "build": _build_row,
    "cpu": _build_cpu_row,
    "state": _state_row,
    "text4096": _text_row,
    "state4096": _text_state_row,
}


def run(cases: list[str] | None = None) -> list[Row]:
    """The rows of ``cases`` (all by default), each with the command that reproduces it alone."""
    started = time.perf_counter()
    rows = [
        dataclasses.replace(CASES[name](), command=f"python -m bench.bench_comms {name}")
        for name in cases or CASES
    ]
    print(f"bench_comms: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return rows


if __name__ == "__main__":
    print(format_table(run(sys.argv[1:])))

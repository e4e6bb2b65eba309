"""Real programs compiled for 8 simulated devices: bytes, axes and lines checked by hand.

Shapes and meshes are chosen so that each collective's per-device buffer is known; lines are
found in this file's own source by a marker comment, so they follow edits.
"""

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import communication_map

from .markers import line_of as marker_line


def line_of(marker: str) -> int:
    """The line of this file carrying ``# <marker>``."""
    return marker_line(marker, __file__)


def assert_line(collective, comms, marker):
    """The marked line where JAX kept it; JAX 0.7 loses shard_map lines it rewrites while
    lowering, and the map then shows the op name and says so, never a line of its own."""
    if collective.source.line is None:
        assert collective.source.origin == "op_name" and collective.source.function
        assert any("name no line of your code" in note for note in comms.notes)
    else:
        assert (collective.source.file, collective.source.line) == (__file__, line_of(marker))


def make_mesh(shape, names):
    axis_type = getattr(jax.sharding, "AxisType", None)
    if axis_type is not None:
        return jax.make_mesh(shape, names, axis_types=(axis_type.Auto,) * len(shape))
    return jax.make_mesh(shape, names)


def shard_map_fn():
    found = getattr(jax, "shard_map", None)
    if found is not None:
        return found
    from jax.experimental.shard_map import shard_map

    return shard_map


def struct(shape, mesh, spec, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(mesh, spec))


def of_kind(comms, kind):
    return [c for c in comms.collectives if c.kind == kind]


def test_data_parallel_gradient_all_reduce_on_a_1d_mesh():
    mesh = make_mesh((8,), ("data",))

    def loss(w, x):
        return jnp.sum(jnp.tanh(x @ w))  # dp-dot

    w = struct((64, 32), mesh, P())
    x = struct((128, 64), mesh, P("data", None))
    comms = communication_map(jax.grad(loss), w, x)
    (reduce,) = of_kind(comms, "all-reduce")
    assert reduce.span.axes == ("data",) and reduce.span.whole and reduce.group_size == 8
    assert reduce.result_bytes == 64 * 32 * 4
    assert reduce.sent == 2 * 7 * 64 * 32 * 4 // 8
    assert (reduce.source.file, reduce.source.line) == (__file__, line_of("dp-dot"))
    assert comms.device_sent == (reduce.sent,) * 8
    assert comms.mesh.axis_names == ("data",)


def test_all_gather_forced_by_a_replicated_constraint_on_a_2d_mesh():
    mesh = make_mesh((2, 4), ("x", "y"))

    def double(a, spec):
        return jax.lax.with_sharding_constraint(a * 2, NamedSharding(mesh, spec))  # ag-line

    a = struct((64, 32), mesh, P("x", None))
    comms = communication_map(jax.jit(double, static_argnums=1), a, P())
    (gather,) = of_kind(comms, "all-gather")
    assert gather.span.axes == ("x",) and gather.group_size == 2
    assert gather.result_bytes == 64 * 32 * 4 and gather.sent == 64 * 32 * 4 // 2
    if gather.source.origin == "op_name":
        # Newer XLA gathers the argument before the multiply and gives the gather the
        # argument's metadata, with no line: the map then names the argument, never a line.
        assert (gather.source.line, gather.source.function) == (None, "a")
    else:
        assert gather.source.line == line_of("ag-line")
    assert comms.outputs[0].spec == "P()"
    assert comms.inputs[0].spec == "P('x', None)"
    fixed = communication_map(jax.jit(double, static_argnums=1), a, P("x", None))
    assert fixed.collectives == ()


def test_explicit_collectives_on_a_3d_mesh():
    mesh = make_mesh((2, 2, 2), ("a", "b", "c"))
    spec = P(("a", "b", "c"), None)

    def body(x):
        s = jax.lax.psum(x, ("a", "c"))  # psum-ac
        t = jax.lax.all_to_all(s, "b", 1, 1, tiled=True)  # a2a-b
        u = jax.lax.ppermute(t, "c", [(0, 1), (1, 0)])  # permute-c
        return jax.lax.psum_scatter(u, "a", scatter_dimension=1, tiled=True)  # scatter-a

    fn = shard_map_fn()(body, mesh=mesh, in_specs=spec, out_specs=spec)
    comms = communication_map(jax.jit(fn), struct((64, 16), mesh, spec))
    block = 8 * 16 * 4  # one device's (8, 16) float32 block
    (reduce,) = of_kind(comms, "all-reduce")
    assert reduce.span.axes == ("a", "c") and reduce.group_size == 4
    assert reduce.sent == 2 * 3 * block // 4
    assert_line(reduce, comms, "psum-ac")
    (a2a,) = of_kind(comms, "all-to-all")
    assert a2a.span.axes == ("b",) and a2a.sent == block // 2
    assert_line(a2a, comms, "a2a-b")
    (permute,) = of_kind(comms, "collective-permute")
    assert permute.span.axes == ("c",) and permute.sent == block
    assert_line(permute, comms, "permute-c")
    (scatter,) = of_kind(comms, "reduce-scatter")
    assert scatter.span.axes == ("a",) and scatter.sent == block // 2
    assert scatter.result_bytes == block // 2
    assert_line(scatter, comms, "scatter-a")
    assert dict(comms.axis_totals)["'b'"] == block // 2


def test_scan_body_all_gather_is_in_a_loop_with_its_trip_count():
    mesh = make_mesh((2, 4), ("data", "fsdp"))

    def step(ws, x):
        def layer(h, w):
            w = jax.lax.with_sharding_constraint(w, NamedSharding(mesh, P()))  # scan-layer
            return jnp.tanh(h @ w), None

        h, _ = jax.lax.scan(layer, x, ws)  # scan-call
        return h

    ws = struct((6, 128, 128), mesh, P(None, "fsdp", None))
    x = struct((32, 128), mesh, P("data", None))
    comms = communication_map(step, ws, x)
    # XLA gathers the weight slice the scan takes (the scan line) or, after the slice, at the
    # constraint; either is a line of this step, inside the loop.
    lines = {line_of("scan-layer"), line_of("scan-call")}
    looped = [c for c in comms.collectives if c.source.line in lines]
    assert looped and all(c.in_loop for c in looped)
    gathers = [c for c in looped if c.kind == "all-gather" and c.span.axes == ("fsdp",)]
    assert gathers and all(c.result_bytes == 128 * 128 * 4 for c in gathers)
    assert all(c.sent == 3 * 128 * 128 * 4 // 4 for c in gathers)
    if "known_trip_count" in jax.jit(step).lower(ws, x).compile().as_text():
        assert {c.executions for c in gathers} == {6}
        assert all(c.sent_per_step == 6 * c.sent for c in gathers)
    summary = " ".join(comms.summary())
    assert "all-gather" in summary and "on axis 'fsdp'" in summary and "in a loop of" in summary


def test_uncommitted_arguments_are_reported_as_copied_every_call():
    mesh = make_mesh((8,), ("data",))

    def scale(x):
        return x * 3

    jitted = jax.jit(scale, in_shardings=NamedSharding(mesh, P("data")))
    comms = communication_map(jitted, jnp.ones((16,)))
    (mismatch,) = comms.mismatches
    assert mismatch.path == "args[0]" and "uncommitted" in mismatch.current
    assert mismatch.expected == "P('data',)"
    assert comms.memory is not None and comms.memory.size("argument") == 16 * 4 // 8


def test_a_mesh_with_devices_out_of_id_order_keeps_its_axes():
    import numpy as np

    order = [0, 2, 4, 6, 1, 3, 5, 7]  # rows {0,2,4,6} and {1,3,5,7}
    mesh = jax.sharding.Mesh(np.array(jax.devices())[order].reshape(2, 4), ("x", "y"))

    def gather(a):
        return jax.lax.with_sharding_constraint(a * 2, NamedSharding(mesh, P()))

    comms = communication_map(jax.jit(gather), struct((8, 16), mesh, P(None, "y")))
    (collective,) = comms.collectives
    assert collective.span.axes == ("y",) and collective.span.whole
    assert comms.device_ids == tuple(order)  # partitions are the mesh's devices in order


def test_numpy_arguments_are_copied_from_the_host_every_call():
    import numpy as np

    mesh = make_mesh((8,), ("data",))
    jitted = jax.jit(lambda x: x + 1, in_shardings=NamedSharding(mesh, P("data")))
    comms = communication_map(jitted, np.ones((16,), np.float32))
    (mismatch,) = comms.mismatches
    assert (mismatch.path, mismatch.current) == ("args[0]", "host memory (numpy)")
    committed = jax.device_put(np.ones((16,), np.float32), NamedSharding(mesh, P("data")))
    assert communication_map(jitted, committed).mismatches == ()


@pytest.mark.parametrize("stage", ["lowered", "compiled"])
def test_lowered_and_compiled_stages_are_accepted(stage):
    mesh = make_mesh((8,), ("data",))
    x = struct((16, 4), mesh, P("data"))
    lowered = jax.jit(lambda v: v.sum(0)).lower(x)
    given = lowered if stage == "lowered" else lowered.compile()
    comms = communication_map(given)
    (reduce,) = of_kind(comms, "all-reduce")
    assert reduce.span.axes == ("data",)

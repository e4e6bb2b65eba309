"""Large buffers every device ends up holding whole are flagged, and the mesh's axis types show.

Programs are compiled for 8 simulated devices from abstract arguments (nothing runs); sizes are
chosen by hand around the 16 MiB threshold.
"""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import communication_map
from jaxdbg_widgets.comms.api import communication_map_from_text
from jaxdbg_widgets.comms.hlo import read_hlo
from jaxdbg_widgets.comms.model import REPLICATED_FLAG_BYTES, build_communication_map
from jaxdbg_widgets.comms.view import comms_view

from .markers import line_of as marker_line
from .test_golden import make_mesh, struct

MIB = 2**20


def line_of(marker: str) -> int:
    return marker_line(marker, __file__)


def gathered_product(a, b):
    return jnp.tanh(a @ b)  # gathered-b


def _rows_map(n):
    """``a @ b`` with both row-sharded over 8 devices: XLA gathers all of ``b`` on each."""
    mesh = make_mesh((8,), ("rows",))
    return communication_map(
        gathered_product,
        struct((n, n), mesh, P("rows", None)),
        struct((n, n), mesh, P("rows", None)),
    )


def test_a_gather_over_every_device_of_a_large_buffer_is_flagged_with_its_line():
    comms = _rows_map(2048)
    (gather,) = [c for c in comms.collectives if c.kind == "all-gather"]
    assert gather.group_size == 8 and gather.result_bytes == 2048 * 2048 * 4 == 16 * MIB
    (flag,) = comms.replicated
    assert (flag.array, flag.nbytes, flag.kind, flag.count) == (
        "f32[2048,2048]",
        16 * MIB,
        "all-gather",
        1,
    )
    if flag.source.line is None:  # JAX 0.12 gives the gather only its argument's op_name
        assert flag.source.origin == "op_name" and flag.source.function
        where = flag.source.label
    else:
        assert (flag.source.file, flag.source.line) == (__file__, line_of("gathered-b"))
        where = f"line {line_of('gathered-b')} of test_replicated.py"
    sentence = f"replicated: f32[2048,2048] 16.0 MiB on every device, from an all-gather at {where}"
    assert flag.sentence == sentence
    assert sentence in comms.summary()
    assert sentence in comms.to_text() and sentence in comms.to_html()
    assert sentence in comms_view(comms)["summary"]


def test_below_the_threshold_nothing_is_flagged_and_the_threshold_can_be_lowered():
    comms = _rows_map(1024)
    assert comms.replicated == ()
    assert not any(line.startswith("replicated:") for line in comms.summary())
    module = read_hlo(gathered_text(1024))
    (flag,) = build_communication_map(module, replicated_bytes=4 * MIB).replicated
    assert flag.nbytes == 4 * MIB and flag.source is not None
    assert build_communication_map(module).replicated == ()
    assert REPLICATED_FLAG_BYTES == 16 * MIB


def gathered_text(n):
    mesh = make_mesh((8,), ("rows",))
    a = struct((n, n), mesh, P("rows", None))
    return jax.jit(gathered_product).lower(a, a).compile().as_text()


def test_a_gather_over_part_of_the_mesh_is_not_full_replication():
    mesh = make_mesh((2, 4), ("x", "y"))

    def gather_y(a):
        return jax.lax.with_sharding_constraint(a * 2, NamedSharding(mesh, P("x", None)))

    comms = communication_map(gather_y, struct((4096, 4096), mesh, P("x", "y")))
    (gather,) = [c for c in comms.collectives if c.kind == "all-gather"]
    assert gather.group_size == 4 and gather.result_bytes == 2048 * 4096 * 4  # 32 MiB, half
    assert comms.replicated == ()


def test_a_fully_replicated_large_output_is_flagged():
    mesh = make_mesh((8,), ("rows",))
    whole = NamedSharding(mesh, P())
    fun = jax.jit(lambda a: a + 1, out_shardings=whole)
    comms = communication_map(fun, struct((2048, 2048), mesh, P("rows", None)))
    outputs = [flag for flag in comms.replicated if flag.kind == "output"]
    assert [(f.array, f.nbytes, f.path) for f in outputs] == [("f32[2048,2048]", 16 * MIB, "out")]
    assert outputs[0].sentence == (
        "replicated: f32[2048,2048] 16.0 MiB on every device, the program's output out"
    )


def test_one_device_programs_flag_nothing():
    comms = communication_map(lambda a: a @ a, jnp.zeros((2048, 2048), jnp.float32))
    assert comms.replicated == ()


def test_the_mesh_and_its_axis_types_show_in_every_view():
    comms = _rows_map(256)
    assert comms.mesh.axis_types == ("Auto",)
    assert "mesh rows=8 (Auto)" in comms.to_text() and "mesh rows=8 (Auto)" in comms.to_html()
    assert comms_view(comms)["mesh"]["types"] == ["Auto"]
    text = gathered_text(256)
    from_text = communication_map_from_text(text, mesh=make_mesh((8,), ("rows",)))
    assert from_text.mesh.axis_types == ("Auto",)
    assert "mesh rows=8 (Auto)" in from_text.to_text()
    explicit = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    named = communication_map_from_text(text, mesh=explicit)
    assert named.mesh.axis_types == ("Explicit", "Explicit")
    assert "mesh x=2 y=4 (Explicit, Explicit)" in named.to_text()


def test_line_diagrams_carry_the_axis_types():
    from jaxdbg_widgets.comms.diagrams import collective_diagrams

    comms = _rows_map(256)
    (gather,) = [c for c in comms.collectives if c.kind == "all-gather"]
    item = collective_diagrams(comms, gather)
    assert "mesh rows=8 (Auto)" in item["operand"]["summary"]
    assert "mesh rows=8 (Auto)" in item["result"]["summary"]

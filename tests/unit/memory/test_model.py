"""The memory model against totals worked out by hand, on 8 simulated CPU devices and stand-ins."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.memory import memory_map
from jaxdbg_widgets.memory.sources import BAD_LEAF, DELETED, NOT_ARRAY, TRACER
from jaxdbg_widgets.sharding.stand_in import GridSharding


@pytest.fixture(scope="module")
def mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def _put(mesh, shape, spec, dtype=jnp.float32):
    return jax.device_put(jnp.zeros(shape, dtype), NamedSharding(mesh, spec))


def test_bytes_per_device_count_every_replica(mesh):
    params = {
        "w": _put(mesh, (8, 16), P("data", "model")),  # 512 B, 64 B per device
        "b": _put(mesh, (16,), P()),  # 64 B copied to all 8 devices
        "e": _put(mesh, (4, 8), P(None, "model"), jnp.bfloat16),  # 64 B, 16 B on each, 2 copies
    }
    memory = memory_map(params)
    assert [d.bytes for d in memory.devices] == [64 + 64 + 16] * 8
    assert memory.total_bytes == 8 * 144
    assert memory.imbalance == pytest.approx(1.0)
    by_path = {leaf.path: leaf for leaf in memory.leaves}
    assert by_path["['b']"].total_bytes == 512 and by_path["['b']"].nbytes == 64
    assert by_path["['b']"].replication == 8 and by_path["['b']"].fully_replicated
    assert by_path["['b']"].device_bytes == 64 and by_path["['w']"].device_bytes == 64
    assert by_path["['e']"].shard_shape == (4, 2) and by_path["['e']"].replication == 2
    assert by_path["['e']"].dtype == "bfloat16" and by_path["['e']"].total_bytes == 128
    assert by_path["['w']"].spec == "P('data', 'model')"
    assert not by_path["['w']"].fully_replicated
    assert memory.process_totals() == {0: 8 * 144}


def test_a_device_lists_its_leaves_largest_first(mesh):
    memory = memory_map({"a": _put(mesh, (8, 16), P("data", "model")), "b": _put(mesh, (64,), P())})
    assert [(leaf.path, n) for leaf, n in memory.leaves_on(3)] == [("['b']", 256), ("['a']", 64)]
    assert [leaf.path for leaf in memory.large_replicated()] == ["['b']"]


def test_uneven_placement_shows_as_imbalance(mesh):
    on_zero = jax.device_put(jnp.zeros((100,), jnp.float32), jax.devices()[0])
    spread = _put(mesh, (8, 16), P("data", "model"))
    memory = memory_map([on_zero, spread])
    assert memory.device(0).bytes == 400 + 64
    assert memory.device(1).bytes == 64
    mean = (400 + 8 * 64) / 8
    assert memory.imbalance == pytest.approx(464 / mean)
    assert memory.grid.title == "mesh data=2 model=4"  # a single-device sharding names no mesh


def test_the_heatmap_follows_the_mesh(mesh):
    memory = memory_map({"w": _put(mesh, (8, 16), P("data", "model"))})
    grid = memory.grid
    assert (grid.rows, grid.cols, grid.row_label, grid.col_label) == (2, 4, "data", "model")
    assert grid.cells[5] == (1, 1, 5)
    flipped = Mesh(np.array(jax.devices()).reshape(4, 2), ("a", "b"))
    assert memory_map({"w": _put(mesh, (8, 16), P())}, mesh=flipped).grid.rows == 4


def test_leaves_on_different_meshes_fall_back_to_device_ids(mesh):
    other = Mesh(np.array(jax.devices()).reshape(8), ("all",))
    memory = memory_map([_put(mesh, (8,), P()), _put(other, (8,), P("all"))])
    assert memory.grid.title == "device ids"
    assert [cell[2] for cell in memory.grid.cells] == list(range(8))


def test_skipped_leaves_are_counted_not_fatal(mesh):
    gone = _put(mesh, (8,), P())
    gone.delete()
    memory = memory_map({"gone": gone, "n": 3, "host": np.ones(4), "none": None})
    assert memory.leaves == ()
    assert dict(memory.skipped) == {NOT_ARRAY: 2, DELETED: 1}
    assert memory.skipped_text() == (
        "skipped 3 leaves: not a device array (2: ['host'], ['n']), deleted or donated (1: ['gone'])"
    )
    assert memory.imbalance is None


def test_tracers_inside_jit_are_counted(mesh):
    seen = []
    jax.jit(lambda v: seen.append(memory_map(v)) or v)(_put(mesh, (8,), P()))
    assert dict(seen[0].skipped) == {TRACER: 1}


def test_live_arrays_include_a_new_array():
    arr = jnp.arange(1234, dtype=jnp.int32)
    memory = memory_map()
    assert memory.source == "live arrays"
    assert any(leaf.shape == (1234,) and leaf.total_bytes == 4936 for leaf in memory.leaves)
    assert [d.id for d in memory.devices] == list(range(8))  # empty devices are shown too
    del arr


def test_shape_dtype_structs_count_as_planned_memory(mesh):
    planned = jax.ShapeDtypeStruct((8, 16), jnp.float32, sharding=NamedSharding(mesh, P("data")))
    memory = memory_map({"p": planned, "no_sharding": jax.ShapeDtypeStruct((4,), jnp.float32)})
    assert memory.device(0).bytes == 4 * 16 * 4
    assert len(memory.skipped) == 1


def test_compiled_program_reports_xla_analysis(mesh):
    params = {"w": _put(mesh, (8, 16), P("data", "model"))}
    batch = _put(mesh, (8, 16), P("data", "model"))
    lowered = jax.jit(lambda p, b: (p["w"] * b).sum()).lower(params, batch)
    for program in (lowered, lowered.compile()):
        memory = memory_map(program)
        assert memory.source == "program"
        assert [leaf.path for leaf in memory.leaves] == ["args[0]['w']", "args[1]", "out"]
        sizes = dict(memory.program.sizes)
        assert sizes["argument"] == 2 * 64  # two (4, 4) float32 shards per device
        assert memory.program.peak == (
            sizes["argument"]
            + sizes["output"]
            - sizes["alias"]
            + sizes["temporary"]
            + sizes["generated code"]
        )
        leaf_bytes = 64 + 64 + 4
        extra = sizes["temporary"] + sizes["generated code"] - sizes["alias"]
        assert memory.device(0).bytes == leaf_bytes + extra
    assert "compiled here" in memory_map(lowered).program.notes[0]


@dataclass(frozen=True)
class _Reporting:
    id: int
    platform: str = "gpu"
    process_index: int = 0

    def memory_stats(self):
        return {"bytes_limit": 16 << 30, "bytes_in_use": self.id << 20}


class _ReportingGrid:
    devices = tuple(_Reporting(i) for i in range(4))

    def devices_indices_map(self, shape):
        rows = shape[0] // 4
        return {d: (slice(d.id * rows, (d.id + 1) * rows), slice(None)) for d in self.devices}


def test_device_limits_come_from_memory_stats():
    memory = memory_map({"x": _Leaf((8, 8), _ReportingGrid())})
    assert memory.memory_reported
    assert memory.device(3).limit == 16 << 30 and memory.device(3).in_use == 3 << 20


def test_cpu_devices_report_no_limit(mesh):
    memory = memory_map({"w": _put(mesh, (8,), P())})
    assert not memory.memory_reported
    assert all(d.limit is None and d.in_use is None for d in memory.devices)


@dataclass
class _Leaf:
    shape: tuple
    sharding: object
    dtype: str = "float32"


def test_shards_on_other_processes_are_counted_from_the_sharding():
    sharding = GridSharding((4, 2), replicas=2, per_process=4)  # 16 devices, 4 processes
    memory = memory_map({"x": _Leaf((8, 8), sharding)})
    assert len(memory.devices) == 16
    assert memory.process_totals() == {p: 4 * 8 * 4 for p in range(4)}
    assert memory.leaves[0].replication == 2


def test_uneven_shards_count_their_real_size():
    memory = memory_map({"x": _Leaf((10,), GridSharding((4,)))})  # blocks 3, 3, 3, 1
    assert [d.bytes for d in memory.devices] == [12, 12, 12, 4]
    assert memory.leaves[0].shard_shape == (3,)


def test_program_names_keyword_and_donated_arguments():
    step = jax.jit(lambda a, *, lr: a * lr, donate_argnums=0)
    memory = memory_map(step.lower(jnp.ones(8), lr=jnp.float32(0.1)))
    assert [leaf.path for leaf in memory.leaves] == ["args[0] (donated)", "kwargs['lr']", "out"]
    assert dict(memory.program.sizes)["alias"] == 32


class _Broken:
    devices = ()

    def devices_indices_map(self, shape):
        raise ValueError("this sharding cannot split that shape")


def test_a_sharding_that_fails_skips_only_its_leaves(mesh):
    broken = _Broken()
    memory = memory_map(
        {"a": _Leaf((3,), broken), "b": _Leaf((3,), broken), "w": _put(mesh, (8,), P())}
    )
    assert [leaf.path for leaf in memory.leaves] == ["['w']"]
    assert dict(memory.skipped) == {BAD_LEAF: 2}


class _BareDevice:
    def __init__(self, id):
        self.id, self.platform = id, "cpu"


class _BareRows:
    devices = tuple(_BareDevice(i) for i in range(2))

    def devices_indices_map(self, shape):
        return {d: (slice(d.id * 4, d.id * 4 + 4),) for d in self.devices}


def test_devices_with_only_id_and_platform_are_of_process_zero():
    memory = memory_map({"x": _Leaf((8,), _BareRows())})
    assert [(d.id, d.process_index, d.bytes) for d in memory.devices] == [(0, 0, 16), (1, 0, 16)]
    assert "process 0" in memory.to_html()


def test_an_empty_map_prints_whole_lines():
    text = memory_map({}).to_text()
    lines = text.splitlines()
    assert lines[0] == "memory map · pytree · 0 leaves · 0 B on 0 devices · max 0 B"
    assert lines[1] == "no devices: nothing in this map is held on a device"
    assert not any(line.strip() in {"de", "vi", "ce", "id", "s"} for line in lines)
    one = memory_map({"x": jnp.zeros(100)}).to_text().splitlines()
    assert one[1] == "device ids" and one[2].strip() == "0: 400 B"


@pytest.mark.parametrize("bad", ["garbage", 3, np.zeros((2, 4))])
def test_a_mesh_that_is_not_a_mesh_is_refused(mesh, bad):
    with pytest.raises(TypeError, match=r"mesh must be a jax\.sharding\.Mesh"):
        memory_map({"w": _put(mesh, (8,), P())}, mesh=bad)


def test_planned_arrays_past_64_bits_are_counted_exactly(mesh):
    huge = jax.ShapeDtypeStruct(
        (2**40, 2**40), jnp.float32, sharding=NamedSharding(mesh, P("data", "model"))
    )
    memory = memory_map({"huge": huge, "small": _put(mesh, (8,), P())})
    assert [d.bytes for d in memory.devices] == [2**80 * 4 // 8 + 32] * 8
    assert memory.total_bytes == 2**82 + 8 * 32
    assert memory.summary()[1] == "4.00 YiB on 8 devices"
    assert "512 ZiB" in memory.to_text() and "512 ZiB" in memory.to_html()


def test_a_jitted_function_asks_for_its_lowered_program(mesh):
    step = jax.jit(lambda w: w * 2)
    with pytest.raises(TypeError, match=r"jitted function.*f\.lower\(\*args\)"):
        memory_map(step)
    with pytest.raises(TypeError, match=r"jax\.jit\(f\)\.lower\(\*args\)"):
        memory_map(lambda w: w)
    w = _put(mesh, (8,), P())
    assert memory_map(step.lower(w)).source == "program"


@pytest.mark.parametrize(
    ("share", "error"),
    [
        (-1, ValueError),
        (1.5, ValueError),
        (float("nan"), ValueError),
        ("x", TypeError),
        (True, TypeError),
    ],
)
def test_large_replicated_checks_its_share(mesh, share, error):
    memory = memory_map({"b": _put(mesh, (64,), P())})
    with pytest.raises(error, match="share must be a number from 0 to 1"):
        memory.large_replicated(share)
    assert [leaf.path for leaf in memory.large_replicated(1)] == ["['b']"]
    assert [leaf.path for leaf in memory.large_replicated(0)] == ["['b']"]


def test_tied_weights_count_once_with_a_note(mesh):
    embed = _put(mesh, (64, 16), P("data"))
    other = _put(mesh, (64, 16), P("data"))
    memory = memory_map({"decoder": embed, "encoder": embed, "other": other})
    per_device = 64 * 16 * 4 // 2
    assert [d.bytes for d in memory.devices] == [2 * per_device] * 8
    by_path = {leaf.path: leaf for leaf in memory.leaves}
    assert by_path["['encoder']"].same_as == "['decoder']"
    assert by_path["['decoder']"].same_as is None and by_path["['other']"].same_as is None
    note = "1 leaf shares a buffer with an earlier leaf, counted once in device totals"
    assert memory.shared_text() == note + ": ['encoder'] is ['decoder']"
    assert note in memory.to_text() and note in memory.to_html()
    planned = jax.ShapeDtypeStruct((8,), jnp.float32, sharding=NamedSharding(mesh, P()))
    assert memory_map({"a": planned, "b": planned}).shared_text() is None  # plans hold no buffer


def test_skipped_leaves_are_named_and_a_single_device_names_its_device(mesh):
    memory = memory_map({f"n{i}": i for i in range(5)} | {"x": jnp.zeros(4)})
    assert memory.skipped_text() == (
        "skipped 5 leaves: not a device array (5: ['n0'], ['n1'], ['n2'], …)"
    )
    assert memory.leaves[0].spec == "SingleDeviceSharding(CPU 0)"
    assert memory_map({"w": _put(mesh, (8,), P())}).leaves[0].spec == "P()"


def test_text_keeps_long_paths_whole():
    long = "transformer/layers_0/attention/multi_head_projection/mlp/"
    text = memory_map({long + "up": jnp.zeros(8), long + "down": jnp.zeros(8)}).to_text()
    rows = [line for line in text.splitlines() if line.startswith("│")]  # the leaf table
    paths = "".join(row.split("│")[1].strip() for row in rows)
    assert paths == f"['{long}down']['{long}up']"  # wrapped over lines, never cut

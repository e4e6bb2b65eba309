"""Property: bytes per device equal the sum over ``devices_indices_map`` of each shard's size,
for random meshes over the 8 CPU devices, random partition specs and random shapes."""

import math

import jax
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.memory import memory_map
from jaxdbg_widgets.memory.model import build_memory_map
from jaxdbg_widgets.sharding.stand_in import GridSharding

MESH_SHAPES = [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8)]


@st.composite
def sharded_leaf(draw):
    mesh_shape = draw(st.sampled_from(MESH_SHAPES))
    names = tuple("abc"[: len(mesh_shape)])
    mesh = Mesh(np.array(jax.devices()).reshape(mesh_shape), names)
    rank = draw(st.integers(0, 3))
    unused = list(names)
    spec = []
    for _ in range(rank):
        axes = draw(st.lists(st.sampled_from(unused), max_size=2, unique=True)) if unused else []
        unused = [n for n in unused if n not in axes]
        spec.append(None if not axes else axes[0] if len(axes) == 1 else tuple(axes))
    sizes = dict(zip(names, mesh_shape, strict=True))
    shape = tuple(
        draw(st.integers(1, 3)) * math.prod(sizes[a] for a in _axes(entry)) for entry in spec
    )
    dtype = draw(st.sampled_from(["float32", "bfloat16", "int8", "float64"]))
    return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(mesh, P(*spec)))


def _axes(entry):
    if entry is None:
        return ()
    return (entry,) if isinstance(entry, str) else entry


def _expected(leaves):
    per_device = {}
    for leaf in leaves:
        itemsize = np.dtype(leaf.dtype).itemsize
        for device, index in leaf.sharding.devices_indices_map(leaf.shape).items():
            size = math.prod(
                len(range(*s.indices(n))) for s, n in zip(index, leaf.shape, strict=True)
            )
            per_device[device.id] = per_device.get(device.id, 0) + size * itemsize
    return per_device


@settings(max_examples=60, deadline=None)
@given(st.lists(sharded_leaf(), min_size=1, max_size=6))
def test_bytes_per_device_match_devices_indices_map(leaves):
    memory = memory_map(leaves)
    expected = _expected(leaves)
    assert {d.id: d.bytes for d in memory.devices} == expected
    assert memory.total_bytes == sum(leaf.total_bytes for leaf in memory.leaves)
    for leaf, struct in zip(memory.leaves, leaves, strict=True):
        copies = leaf.total_bytes // (math.prod(struct.shape) * np.dtype(struct.dtype).itemsize)
        assert copies == leaf.replication or not math.prod(struct.shape)


@settings(max_examples=40, deadline=None)
@given(
    splits=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    replicas=st.integers(1, 3),
    data=st.data(),
)
def test_stand_in_grids_with_uneven_blocks(splits, replicas, data):
    shape = tuple(data.draw(st.integers(0, 12)) for _ in splits)
    sharding = GridSharding(splits, replicas=replicas, per_process=2)
    leaf = type("Leaf", (), {"shape": shape, "dtype": np.dtype("int16"), "sharding": sharding})()
    memory = build_memory_map([("x", leaf)], source="pytree")
    expected = _expected([leaf])
    assert {d.id: d.bytes for d in memory.devices} == expected
    assert sum(memory.process_totals().values()) == sum(expected.values())
    for device in memory.devices:
        assert sum(n for _, n in memory.leaves_on(device.id)) == device.bytes

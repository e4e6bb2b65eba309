import math

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets.sharding.layout import holders_text, sharding_layout
from jaxdbg_widgets.sharding.stand_in import GridSharding, StandInDevice

MESH_SHAPES = [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8), (8, 1), (2, 1, 4)]


@st.composite
def mesh_spec_shape(draw):
    """A mesh over the 8 devices, a PartitionSpec using some of its axes, and a fitting shape."""
    mesh_shape = draw(st.sampled_from(MESH_SHAPES))
    names = tuple("abc"[: len(mesh_shape)])
    rank = draw(st.integers(0, 4))
    unused = list(names)
    entries = []
    for _ in range(rank):
        pick = draw(st.lists(st.sampled_from(unused), unique=True, max_size=2)) if unused else []
        for name in pick:
            unused.remove(name)
        entries.append(None if not pick else pick[0] if len(pick) == 1 else tuple(pick))
    sizes = dict(zip(names, mesh_shape, strict=True))
    shape = []
    for entry in entries:
        axes = () if entry is None else (entry,) if isinstance(entry, str) else entry
        shape.append(math.prod(sizes[a] for a in axes) * draw(st.integers(1, 3)))
    devices = np.array(jax.devices()).reshape(mesh_shape)
    return Mesh(devices, names), PartitionSpec(*entries), tuple(shape)


def _normalized(index, shape):
    return tuple(
        (e.indices(n)[0], e.indices(n)[1]) if isinstance(e, slice) else (e, e + 1)
        for e, n in zip(index, shape, strict=True)
    )


@settings(max_examples=150, deadline=None)
@given(mesh_spec_shape())
def test_cells_match_devices_indices_map(case):
    mesh, spec, shape = case
    sharding = NamedSharding(mesh, spec)
    layout = sharding_layout(shape, sharding)
    expected = {d.id: _normalized(i, shape) for d, i in sharding.devices_indices_map(shape).items()}
    seen = {device_id: cell.bounds for cell in layout.cells for device_id in cell.device_ids}
    assert seen == expected
    assert sorted(seen) == sorted(d.id for d in layout.devices)
    # distinct shards tile the array: their volumes add up to its size
    assert sum(math.prod(c.shard_shape) for c in layout.cells) == math.prod(shape)
    assert math.prod(layout.grid) == len(layout.cells)
    assert {c.replicas for c in layout.cells} == {8 // len(layout.cells)}
    assert layout.spec_text() == "P(" + ", ".join(_entry_text(e) for e in spec) + ")"


@settings(max_examples=80, deadline=None)
@given(mesh_spec_shape(), st.data())
def test_facets_place_every_cell_once(case, data):
    mesh, spec, shape = case
    layout = sharding_layout(shape, NamedSharding(mesh, spec))
    rows = cols = None
    if len(shape) >= 3:
        rows, cols = data.draw(st.permutations(range(len(shape))))[:2]
    facets = layout.facets(rows, cols)
    placed = [cell for facet in facets for _, _, cell in facet.cells]
    assert sorted(c.position for c in placed) == sorted(c.position for c in layout.cells)
    for facet in facets:
        spots = [(r, c) for r, c, _ in facet.cells]
        assert len(set(spots)) == len(spots) == facet.rows * facet.cols
    if len(shape) >= 3:
        assert all(f.row_dim == rows and f.col_dim == cols for f in facets)
        assert all(f.title.count(":") >= 2 for f in facets)


def _entry_text(entry):
    if entry is None:
        return "None"
    if isinstance(entry, str):
        return repr(entry)
    return "(" + ", ".join(repr(e) for e in entry) + ")"


def test_cell_label_slices_and_bytes():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    layout = sharding_layout(
        (16, 16), NamedSharding(mesh, PartitionSpec(None, "x")), dtype="float32"
    )
    assert [c.label for c in layout.cells] == ["CPU 0,1,2,3", "CPU 4,5,6,7"]
    assert layout.cells[1].index_text == "[0:16, 8:16]"
    assert layout.cells[1].shard_shape == (16, 8)
    assert layout.shard_bytes(layout.cells[1]) == 16 * 8 * 4
    assert layout.dim_label(1) == "dim 1: x"
    assert layout.replicated_axes() == ("y",)


def test_fully_replicated_scalar_and_single_device():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    scalar = sharding_layout((), NamedSharding(mesh, PartitionSpec()))
    assert scalar.is_fully_replicated
    assert scalar.cells[0].index_text == "[]"
    assert [f.rows * f.cols for f in scalar.facets()] == [1]
    # JAX 0.10 added the constructor and later deprecated the class's name
    one_device = getattr(jax.sharding, "make_single_device_sharding", None)
    single = sharding_layout(
        (3, 5), (one_device or jax.sharding.SingleDeviceSharding)(jax.devices()[3])
    )
    assert [c.label for c in single.cells] == ["CPU 3"]
    assert single.spec is None and single.kind == "SingleDeviceSharding"


def test_array_from_pmap():
    out = jax.pmap(lambda v: v * 2)(np.zeros((8, 3)))
    layout = sharding_layout(out.shape, out.sharding)
    assert [c.label for c in layout.cells] == [f"CPU {i}" for i in range(8)]
    assert layout.grid == (8, 1)


def test_integer_indices_as_pmap_style_shardings_give():
    class PmapStyle:
        def devices_indices_map(self, shape):
            return {StandInDevice(i): (i, slice(None)) for i in range(shape[0])}

    layout = sharding_layout((8, 3), PmapStyle())
    assert [c.bounds for c in layout.cells] == [((i, i + 1), (0, 3)) for i in range(8)]


def test_mock_devices_uneven_and_many():
    layout = sharding_layout((128, 256), GridSharding((64, 64), replicas=1, per_process=1024))
    assert len(layout.cells) == 4096 and layout.grid == (64, 64)
    assert layout.cells[0].label == "TPU 0"
    assert layout.process_indices == (0, 1, 2, 3)
    uneven = sharding_layout((10,), GridSharding((4,)))
    assert [c.shard_shape for c in uneven.cells] == [(3,), (3,), (3,), (1,)]


def test_high_rank_default_and_chosen_axes():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("a", "b", "c"))
    layout = sharding_layout((4, 4, 4, 4), NamedSharding(mesh, PartitionSpec("a", "b", None, "c")))
    default = layout.facets()
    assert (default[0].row_dim, default[0].col_dim) == (2, 3)
    assert [f.title for f in default] == [
        "[0:2, 0:2, :, :]",
        "[0:2, 2:4, :, :]",
        "[2:4, 0:2, :, :]",
        "[2:4, 2:4, :, :]",
    ]
    chosen = layout.facets(rows=0, cols=1)
    assert len(chosen) == 2 and chosen[0].rows == chosen[0].cols == 2


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: sharding_layout((4,), object()), TypeError, "devices_indices_map"),
        (lambda: sharding_layout("ab", GridSharding((1,))), TypeError, "sequence of ints"),
        (lambda: sharding_layout((-1,), GridSharding((1,))), ValueError, "non-negative"),
        (lambda: sharding_layout((4, 4), GridSharding((2, 2))).facets(rows=5), ValueError, "rows"),
        (
            lambda: sharding_layout((4, 4, 4), GridSharding((1, 1, 1))).facets(rows=1, cols=1),
            ValueError,
            "different",
        ),
    ],
)
def test_bad_input_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_devices_without_attributes_are_rejected():
    class Bare:
        def devices_indices_map(self, shape):
            return {object(): (slice(None),)}

    with pytest.raises(TypeError, match="devices need id and platform"):
        sharding_layout((4,), Bare())


def test_multi_process_mock():
    layout = sharding_layout((8,), GridSharding((4,), replicas=2, per_process=4))
    assert [c.process_indices for c in layout.cells] == [(0,), (0,), (1,), (1,)]
    assert (5, "tpu", 1) in [(d.id, d.platform, d.process_index) for d in layout.devices]


@st.composite
def mock_case(draw):
    """Up to 4,096 stand-in devices over 1-4 dimensions, uneven splits, replicas, processes."""
    rank = draw(st.integers(1, 4))
    splits = draw(st.lists(st.integers(1, 16), min_size=rank, max_size=rank))
    replicas = draw(st.sampled_from([1, 2, 4]))
    total = math.prod(splits) * replicas
    if total > 4096:
        splits, replicas, total = [1] * rank, 1, 1
    shape = tuple(s * draw(st.integers(1, 3)) + draw(st.integers(0, s - 1)) for s in splits)
    per_process = draw(st.sampled_from([None, 1, 2, 8]))
    return shape, GridSharding(splits, replicas=replicas, per_process=per_process)


@settings(max_examples=100, deadline=None)
@given(mock_case())
def test_stand_in_devices_at_scale(case):
    shape, sharding = case
    layout = sharding_layout(shape, sharding)
    expected = {d.id: _normalized(i, shape) for d, i in sharding.devices_indices_map(shape).items()}
    assert {i: c.bounds for c in layout.cells for i in c.device_ids} == expected
    process_of = {d.id: d.process_index for d in sharding.devices}
    for cell in layout.cells:
        assert cell.process_indices == tuple(sorted({process_of[i] for i in cell.device_ids}))
    assert sum(math.prod(c.shard_shape) for c in layout.cells) == math.prod(shape)
    placed = [cell for facet in layout.facets() for _, _, cell in facet.cells]
    assert len(placed) == len(layout.cells)


def test_an_index_object_shared_by_devices_apart_is_one_shard():
    """Replicas listed side by side are grouped by run; an index object that comes back after
    another one still gathers all its devices into one cell."""
    devices = [StandInDevice(i) for i in range(5)]
    first, second = (slice(0, 2),), (slice(2, 4),)

    class Interleaved:
        def devices_indices_map(self, shape):
            return dict(zip(devices, [first, first, second, first, (slice(2, None),)], strict=True))

    layout = sharding_layout((4,), Interleaved())
    assert [(c.bounds, c.device_ids) for c in layout.cells] == [
        (((0, 2),), (0, 1, 3)),
        (((2, 4),), (2, 4)),
    ]


def test_heavy_replication_is_summarised_in_labels():
    assert holders_text([4, 0], ",") == "0,4"  # a few holders: listed as JAX lists them
    assert holders_text(range(8), ",") == "0,1,2,3,4,5,6,7"
    assert holders_text(range(256), ",") == "0–255 ×256"
    assert holders_text([*range(8), 20], ", ") == "0–7, 20 ×9"
    assert holders_text(range(0, 4096, 16), ", ") == "0, 16, 32, … ×256"
    layout = sharding_layout((1024, 1024), GridSharding((4, 4), replicas=256))
    assert [c.label for c in layout.cells[:2]] == ["TPU 0–255 ×256", "TPU 256–511 ×256"]
    assert layout.cells[0].device_ids == tuple(range(256))  # the model keeps every holder

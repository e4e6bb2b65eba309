import contextlib
import io
import re

import jax
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets import sharding_text
from jaxdbg_widgets.sharding.stand_in import GridSharding

MESHES = [(8,), (2, 4), (4, 2), (1, 8), (2, 2, 2)]


def jax_text(shape, sharding, **options):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        jax.debug.visualize_sharding(shape, sharding, use_color=False, **options)
    return out.getvalue().rstrip("\n")


@st.composite
def low_rank_case(draw):
    mesh_shape = draw(st.sampled_from(MESHES))
    names = tuple("xyz"[: len(mesh_shape)])
    mesh = Mesh(np.array(jax.devices()).reshape(mesh_shape), names)
    rank = draw(st.integers(1, 2))
    free = list(names)
    entries = []
    for _ in range(rank):
        pick = draw(st.lists(st.sampled_from(free), unique=True, max_size=2)) if free else []
        free = [n for n in free if n not in pick]
        entries.append(None if not pick else pick[0] if len(pick) == 1 else tuple(pick))
    sizes = dict(mesh.shape)
    shape = []
    for entry in entries:
        axes = () if entry is None else (entry,) if isinstance(entry, str) else entry
        split = int(np.prod([sizes[a] for a in axes]))
        shape.append(split * draw(st.sampled_from([1, 2, 4, 8])))
    options = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "scale": st.sampled_from([0.5, 1.0, 1.5, 2.0]),
                "min_width": st.integers(3, 12),
            },
        )
    )
    return tuple(shape), NamedSharding(mesh, PartitionSpec(*entries)), options


@settings(max_examples=120, deadline=None)
@given(low_rank_case())
def test_same_cells_and_arrangement_as_jax(case):
    shape, sharding, options = case
    ours = sharding_text(shape, sharding, use_color=False, **options).rstrip("\n")
    if max(len(line) for line in ours.splitlines()) <= options.get("max_width", 80):
        assert ours == jax_text(shape, sharding, **options)
    else:
        # wider than JAX's console: JAX wraps and truncates labels, we keep every label whole
        assert all(label in ours for label in expected_labels(shape, sharding))


def expected_labels(shape, sharding):
    holders = {}
    for device, index in sharding.devices_indices_map(shape).items():
        holders.setdefault(str(index), []).append(device.id)
    return ["CPU " + ",".join(str(i) for i in sorted(ids)) for ids in holders.values()]


def test_labels_survive_where_jax_truncates():
    sharding = GridSharding((16, 16), platform="cpu")
    ours = sharding_text((256, 256), sharding, use_color=False)
    theirs = jax_text((256, 256), sharding)
    assert {int(i) for i in re.findall(r"│\s*CPU (\d+)\s*(?=│)", ours)} == set(range(256))
    assert len({int(i) for i in re.findall(r"│\s*CPU (\d+)\s*(?=│)", theirs)}) < 256


def test_colour_output_has_24_bit_backgrounds():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    text = sharding_text((8, 8), NamedSharding(mesh, PartitionSpec("x", "y")), use_color=True)
    backgrounds = {part.split("m")[0] for part in text.split("\x1b[")[1:] if ";48;2;" in part}
    assert len({b.split(";48;2;")[1] for b in backgrounds}) == 8


def test_three_dimensions_draw_as_titled_facets():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    text = sharding_text(
        (4, 8, 8), NamedSharding(mesh, PartitionSpec("x", None, "y")), use_color=False
    )
    assert "[0:2, :, :]" in text and "[2:4, :, :]" in text
    assert text.index("[0:2, :, :]") < text.index("CPU 0") < text.index("[2:4, :, :]")
    assert text.index("[2:4, :, :]") < text.index("CPU 4")


def test_multi_process_labels_name_the_process():
    text = sharding_text((8,), GridSharding((4,), per_process=2, platform="cpu"), use_color=False)
    assert "CPU 0 p0" in text and "CPU 3 p1" in text


def test_heavy_replication_keeps_the_grid_narrow():
    text = sharding_text((1024, 1024), GridSharding((4, 4), replicas=256), use_color=False)
    assert "TPU 0–255 ×256" in text and "TPU 3840–4095 ×256" in text
    assert max(len(line) for line in text.splitlines()) < 100


def test_process_boundaries_are_heavy_lines():
    """Two processes side by side (a heavy wall), and four in a column (heavy rules)."""
    across = sharding_text((8,), GridSharding((4,), per_process=2, platform="cpu"), use_color=False)
    assert across.splitlines() == [
        "┌────────┬────────┰────────┬────────┐",
        "│CPU 0 p0│CPU 1 p0┃CPU 2 p1│CPU 3 p1│",
        "└────────┴────────┸────────┴────────┘",
    ]
    down = sharding_text(
        (8, 8), GridSharding((4, 2), per_process=2, platform="cpu"), use_color=False
    )
    rules = [line for line in down.splitlines() if line[0] in "├┝"]
    assert rules == ["┝━━━━━━━━━━┿━━━━━━━━━━┥"] * 3


def test_process_blocks_meet_at_a_heavy_cross():
    text = sharding_text(
        (8, 8), GridSharding((2, 4), per_process=2, platform="cpu"), use_color=False
    )
    lines = text.splitlines()
    assert lines[0] == "┌────────┬────────┰────────┬────────┐"
    assert "┝━━━━━━━━┿━━━━━━━━╋━━━━━━━━┿━━━━━━━━┥" in lines
    assert all(line[18] == "┃" for line in lines[1:-1] if line[0] == "│")


def test_one_process_keeps_the_plain_box():
    text = sharding_text((8, 8), GridSharding((2, 2), platform="cpu"), use_color=False)
    assert not set(text) & set("┃━╋┿╂┝┥┰┸")

"""One memory map of a job from each process's part: stand-in devices of two processes, the
engine's part in this process, and the notebook side over a stand-in ipyparallel view."""

import json
from dataclasses import dataclass

import pytest

from jaxdbg_widgets.memory.display import MemoryMap
from jaxdbg_widgets.memory.gathered import gathered_map, process_part
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import build_memory_map
from jaxdbg_widgets.memory.view import memory_view, process_line
from jaxdbg_widgets.sharding.stand_in import GridSharding


@dataclass
class _Leaf:
    shape: tuple
    sharding: object
    dtype: str = "float32"


class _OnDevice:
    """A whole array on one device."""

    def __init__(self, device):
        self.device = device

    def devices_indices_map(self, shape):
        return {self.device: tuple(slice(0, n) for n in shape)}


GLOBAL = GridSharding((4,), per_process=2, platform="cpu")  # devices 0-1 p0, 2-3 p1
DEVICES = GLOBAL.devices


def _part(process, local_shape, device, sharding=GLOBAL):
    """Process ``process``'s part: the global ``w`` and its own ``x`` on ``device``."""
    tree = {"w": _Leaf((8,), sharding), "x": _Leaf(local_shape, _OnDevice(device))}
    entries = [(f"['{k}']", v) for k, v in tree.items()]
    memory = build_memory_map(entries, source="pytree", devices=sharding.devices)
    return json.loads(json.dumps(process_part(memory, process)))  # plain data only


@pytest.fixture
def parts():
    return [_part(1, (6,), DEVICES[2]), _part(0, (4,), DEVICES[0])]


def test_each_device_is_counted_by_its_own_process(parts):
    memory = gathered_map(parts)
    assert [(d.id, d.process_index, d.bytes) for d in memory.devices] == [
        (0, 0, 8 + 16),
        (1, 0, 8),
        (2, 1, 8 + 24),
        (3, 1, 8),
    ]
    assert memory.process_totals() == {0: 32, 1: 40}
    assert memory.source == "pytree of 2 processes"


def test_a_global_array_is_listed_once_and_local_ones_by_process(parts):
    memory = gathered_map(parts)
    assert [leaf.path for leaf in memory.leaves] == ["['w']", "p0:['x']", "p1:['x']"]
    w = memory.leaves[0]
    assert (w.total_bytes, w.device_bytes, w.device_count) == (32, 8, 4)
    assert [(leaf.path, size) for leaf, size in memory.leaves_on(2)] == [
        ("p1:['x']", 24),
        ("['w']", 8),
    ]


def test_every_view_shows_the_processes(parts):
    memory = gathered_map(parts, kind=MemoryMap)
    view = memory_view(memory)
    assert view["processes"] == [[0, 32, "32 B"], [1, 40, "40 B"]]
    assert [d["process"] for d in view["devices"]] == [0, 0, 1, 1]
    assert "2 processes" in view["summary"]
    line = (
        "per process: process 0: 32 B on 2 devices, fullest 24 B; "
        "process 1: 40 B on 2 devices, fullest 32 B"
    )
    assert process_line(view) == line
    assert line in memory.to_text() and line in memory.to_html()
    alone = gathered_map([_part(0, (4,), ONE.devices[0], ONE)])
    assert process_line(memory_view(alone)) is None


def test_a_leaf_diagram_shows_the_shards_of_every_process(parts):
    memory = gathered_map(parts)
    diagram = leaf_diagram(memory, 0)
    assert diagram["kind"] == "GridSharding"
    assert diagram["processes"] == [[0, "0-1"], [1, "2-3"]]
    assert diagram["process_edges"] == [[1, 1]]
    assert diagram["cells"]["label"] == ["CPU 0 p0", "CPU 1 p0", "CPU 2 p1", "CPU 3 p1"]


ONE = GridSharding((2,), platform="cpu")  # devices 0-1, all of process 0


def test_one_process_keeps_its_paths():
    memory = gathered_map([_part(0, (4,), ONE.devices[0], ONE)])
    assert [leaf.path for leaf in memory.leaves] == ["['w']", "['x']"]
    assert memory.source == "pytree"


def test_bad_parts_are_refused(parts):
    with pytest.raises(ValueError, match="at least one"):
        gathered_map([])
    with pytest.raises(ValueError, match=r"one part, got processes \[0, 0\]"):
        gathered_map([parts[1], parts[1]])
    with pytest.raises(ValueError, match=r"processes \[1\], which sent no part"):
        gathered_map([parts[1]])


def test_a_program_is_refused():
    import jax

    lowered = jax.jit(lambda a: a * 2).lower(jax.numpy.ones(4))
    from jaxdbg_widgets.memory import memory_map

    with pytest.raises(ValueError, match="not a program"):
        process_part(memory_map(lowered), 0)


def test_the_engine_part_maps_a_namespace_expression_over_every_device(monkeypatch):
    import jax
    import jax.numpy as jnp

    from jaxdbg_widgets.multiprocess import memory as cluster_memory

    shell = type("Shell", (), {"user_ns": {"params": {"b": jnp.ones(8)}}})()
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    part = cluster_memory.engine_part("params")
    assert part["process"] == 0 and part["source"] == "pytree"
    assert len(part["devices"]) == jax.device_count()
    assert [leaf[0] for leaf in part["leaves"]] == ["['b']"]
    with pytest.raises(ValueError, match="'nothing' failed: NameError"):
        cluster_memory.engine_part("nothing")
    with pytest.raises(ValueError, match="not a program"):
        cluster_memory.engine_part("__import__('jax').jit(lambda a: a).lower(1.0)")


class _View:
    """A stand-in ipyparallel view: ``apply_sync`` answers with the parts of its engines."""

    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def apply_sync(self, function, *args):
        self.calls.append((function.__name__, args))
        if isinstance(self.answers, Exception):
            raise self.answers
        return self.answers


def test_the_notebook_joins_what_the_engines_answer(parts):
    from jaxdbg_widgets.multiprocess.memory import cluster_memory_map

    view = _View(parts)
    memory = cluster_memory_map("params", view=view)
    assert view.calls == [("engine_part", ("params",))]
    assert isinstance(memory, MemoryMap) and memory.process_totals() == {0: 32, 1: 40}


def test_an_engine_error_is_one_line_naming_the_engine():
    from ipyparallel.error import CompositeError

    from jaxdbg_widgets.multiprocess.memory import cluster_memory_map

    error = CompositeError(
        "one or more exceptions", [("ValueError", "'p' failed: NameError", None, {"engine_id": 3})]
    )
    with pytest.raises(ValueError, match=r"^cluster memory: engine 3: ValueError: 'p' failed"):
        cluster_memory_map("p", view=_View(error))


def test_without_a_job_the_map_says_how_to_join_one(monkeypatch):
    from jaxdbg_widgets.multiprocess import job
    from jaxdbg_widgets.multiprocess.memory import cluster_memory_map

    monkeypatch.setattr(job, "_view", None)
    with pytest.raises(ValueError, match="%jaxdbg cluster N"):
        cluster_memory_map()


def test_a_gathered_placement_is_of_its_own_shape(parts):
    memory = gathered_map(parts)
    placed = memory.groups[0].sharding.devices_indices_map((8,))
    assert [(d.id, d.process_index, index) for d, index in placed.items()] == [
        (i, i // 2, (slice(2 * i, 2 * i + 2),)) for i in range(4)
    ]
    with pytest.raises(ValueError, match="shape"):
        memory.groups[0].sharding.devices_indices_map((9,))


def test_the_cluster_magic_shows_the_job_map(parts, monkeypatch):
    from jaxdbg_widgets.multiprocess import command, job

    view = _View(parts)
    shown = []
    monkeypatch.setattr(job, "_view", view)
    monkeypatch.setattr("IPython.display.display", shown.append)
    assert command.run(["memory", "params['w']"], {}) is None
    assert view.calls == [("engine_part", ("params['w']",))]
    (memory,) = shown
    assert isinstance(memory, MemoryMap) and memory.process_totals() == {0: 32, 1: 40}

"""``%jaxdbg cluster sharding EXPR``: each engine's placement of a global array, drawn in the
notebook; engines stood in for by a view whose ``apply_sync`` answers with their placements."""

import json
import re

import jax
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets.memory.gathered import plain_placement
from jaxdbg_widgets.multiprocess import command, job
from jaxdbg_widgets.multiprocess.sharding import cluster_sharding_view, engine_placement
from jaxdbg_widgets.sharding.stand_in import GridSharding
from jaxdbg_widgets.sharding.widget import ShardingWidget


class _View:
    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def apply_sync(self, function, *args):
        self.calls.append((function.__name__, args))
        return self.answers


def _answer(sharding, shape=(8, 8), dtype="float32"):
    return {"shape": list(shape), "dtype": dtype, **plain_placement(sharding, shape)}


POD = GridSharding((2, 4), per_process=2, platform="cpu")  # 8 devices, 4 processes


def test_the_notebook_draws_the_placement_with_its_processes():
    view = _View([_answer(POD)] * 4)
    widget = cluster_sharding_view("x", view=view)
    assert view.calls == [("engine_placement", ("x",))]
    assert widget.layout.kind == "GridSharding"
    assert widget.layout.process_indices == (0, 1, 2, 3)
    assert widget.view["process_edges"] == [[0, 2], [1, 3], [2, 2], [3, 2], [5, 1]]
    assert "┃" in widget.to_text() and "CPU 7 p3" in widget.to_text()


def test_engines_that_disagree_hold_no_global_array():
    other = _answer(GridSharding((4, 2), per_process=2, platform="cpu"))
    with pytest.raises(ValueError, match="not one global array"):
        cluster_sharding_view("x", view=_View([_answer(POD), other]))


def test_an_expression_is_needed():
    with pytest.raises(ValueError, match="needs an expression"):
        cluster_sharding_view("  ", view=_View([]))


def test_the_engine_reads_a_real_array_with_its_mesh_and_spec(monkeypatch):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    arr = jax.device_put(np.zeros((8, 8), np.float32), NamedSharding(mesh, PartitionSpec("x")))
    shell = type("Shell", (), {"user_ns": {"arr": arr, "n": 3}})()
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    answer = engine_placement("arr")
    assert answer["kind"] == "NamedSharding" and answer["dtype"] == "float32"
    assert answer["mesh_axes"] == [["x", 2], ["y", 4]] and answer["spec_entries"] == [["x"]]
    widget = cluster_sharding_view("arr", view=_View([answer]))
    direct = ShardingWidget.from_array(arr)
    assert widget.view["summary"] == direct.view["summary"]  # shape, mesh, spec, devices
    assert widget.view["cells"] == direct.view["cells"]
    with pytest.raises(TypeError, match="not an array with a sharding"):
        engine_placement("n")
    with pytest.raises(ValueError, match="'missing' failed: NameError"):
        engine_placement("missing")


def test_the_cluster_magic_shows_the_sharding(monkeypatch):
    shown = []
    monkeypatch.setattr(job, "_view", _View([_answer(POD)] * 4))
    monkeypatch.setattr("IPython.display.display", shown.append)
    assert command.run(["sharding", "params['w']"], {}) is None
    [output] = shown  # one standalone output, which lasts through a restart
    assert "application/vnd.jupyter.widget-view+json" not in output._repr_mimebundle_()
    state = json.loads(re.search(r'type="application/json">(.*?)</script>', output.html).group(1))
    assert [process for process, _ in state["state"]["view"]["processes"]] == [0, 1, 2, 3]

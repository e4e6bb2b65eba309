"""Two ``jax.distributed`` CPU processes on 127.0.0.1: each sees the other's shards."""

from pathlib import Path

import pytest

from jaxdbg_widgets.memory.gathered import placement_from
from jaxdbg_widgets.sharding.widget import ShardingWidget
from tests.fixtures.multiprocess import run_two_processes

WORKER = Path(__file__).with_name("multiprocess_worker.py")


@pytest.fixture(scope="module")
def outputs():
    return run_two_processes(WORKER)


def test_remote_shards_show_their_process_index(outputs):
    for process_id, seen in enumerate(outputs):
        by_process = {}
        for device_ids, processes in seen["cells"]:
            (process,) = processes
            by_process.setdefault(process, []).extend(device_ids)
        assert sorted(by_process) == [0, 1]
        assert by_process[process_id] == seen["local"]
        remote = by_process[1 - process_id]
        assert set(remote).isdisjoint(seen["local"])
        assert f"process {1 - process_id}: " in seen["html"]
        assert f"CPU {remote[0]} p{1 - process_id}" in seen["text"]
    assert outputs[0]["cells"] == outputs[1]["cells"]


def test_process_boundaries_of_a_global_array_are_marked(outputs):
    """Mesh rows are processes here: each cell of the first row has a boundary below it."""
    for seen in outputs:
        assert len(seen["edges"]) == 2
        assert all(sides == 2 for _, sides in seen["edges"])
        assert [seen["cells"][n][1] for n, _ in seen["edges"]] == [[0], [0]]
        assert "┝━" in seen["text"] and "━┥" in seen["text"]
        assert "border-bottom:3px solid" in seen["html"]


def test_the_placement_each_process_sends_draws_the_same_view_in_the_notebook(outputs):
    """What ``%jaxdbg cluster sharding`` carries: both processes send one placement, and the
    view drawn from it over stand-in devices is the one each process draws itself."""
    first, second = (seen["placement"] for seen in outputs)
    assert first == second
    widget = ShardingWidget((4, 4), placement_from(first, (4, 4)))
    assert widget.layout.kind == "NamedSharding"
    cells = [[list(c.device_ids), list(c.process_indices)] for c in widget.layout.cells]
    assert cells == outputs[0]["cells"]
    assert widget.view["process_edges"] == outputs[0]["edges"]

"""Two ``jax.distributed`` CPU processes: each counts the other's shards from the sharding."""

from pathlib import Path

import pytest

from jaxdbg_widgets.memory.gathered import gathered_map
from tests.fixtures.multiprocess import run_two_processes

WORKER = Path(__file__).with_name("multiprocess_worker.py")


@pytest.fixture(scope="module")
def outputs():
    return run_two_processes(WORKER)


def test_each_process_counts_every_device(outputs):
    per_device = 4 * 4 // 4 * 4 + 8 * 4  # a (2, 2) float32 shard of w plus all of b
    for seen in outputs:
        assert [bytes_ for _, _, bytes_ in seen["devices"]] == [per_device] * 4
        processes = {device_id: p for device_id, p, _ in seen["devices"]}
        assert sorted(set(processes.values())) == [0, 1]
        assert seen["processes"] == {"0": 2 * per_device, "1": 2 * per_device}
        assert "process 0: " in seen["html"] and "process 1: " in seen["html"]
    assert outputs[0]["devices"] == outputs[1]["devices"]
    assert set(outputs[0]["local"]).isdisjoint(outputs[1]["local"])


def test_the_parts_of_both_processes_join_into_one_map(outputs):
    """Global arrays once, each process's own array under its process, each device's bytes
    from its own process."""
    memory = gathered_map([seen["part"] for seen in outputs])
    per_device = 4 * 4 // 4 * 4 + 8 * 4
    own = {seen["own_device"]: 4 * (p + 2) for p, seen in enumerate(outputs)}
    assert [d.bytes for d in memory.devices] == [
        per_device + own.get(d.id, 0) for d in memory.devices
    ]
    assert memory.process_totals() == {0: 2 * per_device + 8, 1: 2 * per_device + 12}
    paths = [leaf.path for leaf in memory.leaves]
    assert paths == ["params['w']", "params['b']", "p0:own", "p1:own"]
    assert memory.source == "pytree of 2 processes"

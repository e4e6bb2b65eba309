"""Two ``jax.distributed`` CPU processes: each counts the other's shards from the sharding."""

from pathlib import Path

from tests.fixtures.multiprocess import run_two_processes

WORKER = Path(__file__).with_name("multiprocess_worker.py")


def test_each_process_counts_every_device():
    outputs = run_two_processes(WORKER)

    per_device = 4 * 4 // 4 * 4 + 8 * 4  # a (2, 2) float32 shard of w plus all of b
    for seen in outputs:
        assert [bytes_ for _, _, bytes_ in seen["devices"]] == [per_device] * 4
        processes = {device_id: p for device_id, p, _ in seen["devices"]}
        assert sorted(set(processes.values())) == [0, 1]
        assert seen["processes"] == {"0": 2 * per_device, "1": 2 * per_device}
        assert "process 0: " in seen["html"] and "process 1: " in seen["html"]
    assert outputs[0]["devices"] == outputs[1]["devices"]
    assert set(outputs[0]["local"]).isdisjoint(outputs[1]["local"])

"""Two ``jax.distributed`` CPU processes on 127.0.0.1: each sees the other's shards."""

from pathlib import Path

from tests.fixtures.multiprocess import run_two_processes

WORKER = Path(__file__).with_name("multiprocess_worker.py")


def test_remote_shards_show_their_process_index():
    outputs = run_two_processes(WORKER)

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

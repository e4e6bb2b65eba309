"""Two ``jax.distributed`` CPU processes: each counts the other's shards from the sharding."""

import json
import socket
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).with_name("multiprocess_worker.py")
REPO = Path(__file__).resolve().parents[3]


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_each_process_counts_every_device():
    port = str(_free_port())
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(i), port],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err[-2000:]
        outputs.append(json.loads(out.strip().splitlines()[-1]))

    per_device = 4 * 4 // 4 * 4 + 8 * 4  # a (2, 2) float32 shard of w plus all of b
    for seen in outputs:
        assert [bytes_ for _, _, bytes_ in seen["devices"]] == [per_device] * 4
        processes = {device_id: p for device_id, p, _ in seen["devices"]}
        assert sorted(set(processes.values())) == [0, 1]
        assert seen["processes"] == {"0": 2 * per_device, "1": 2 * per_device}
        assert "process 0: " in seen["html"] and "process 1: " in seen["html"]
    assert outputs[0]["devices"] == outputs[1]["devices"]
    assert set(outputs[0]["local"]).isdisjoint(outputs[1]["local"])

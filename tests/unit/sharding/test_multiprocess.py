"""Two ``jax.distributed`` CPU processes on 127.0.0.1: each sees the other's shards."""

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


def test_remote_shards_show_their_process_index():
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

"""Whether a collective returns when the processes of a job traced it from cell files of
different names, as ipykernel names them (``/tmp/ipykernel_<pid>/<hash>.py``), and with the
names ``jaxdbg_widgets.cluster`` has every engine's programs write
(``python -m bench.collective_file_names``; docs/multi-process.md).

Each way runs a jitted ``float(y.sum())`` over 4 local processes of 2 CPU devices each and
prints how long the job took, or that a process gave no answer in ``LIMIT`` seconds (JAX
handles SIGTERM, so those are killed). Exits 1 when the cluster's way does not return.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

PROCESSES = 4
LIMIT = 60.0
CODE = "def total(y):\n    return float(y.sum())\n"
WAYS = {
    "per-process": "a cell file name per process (ipykernel's, JAX's names)",
    "one": "one file name for every process",
    "cluster": "a cell file name per process, written as jaxdbg_widgets.cluster has it",
}


def worker(rank: int, port: int, way: str) -> None:
    """One process of the job: join it, then sum a global array with code compiled in a cell
    file of this process, named in programs as ``way`` says."""
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec

    if way == "cluster":
        from jaxdbg_widgets.multiprocess import engine

        engine.name_cell_files_alike()
    jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=PROCESSES, process_id=rank)
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    local = np.arange(2.0) + 10 * rank
    x = jax.make_array_from_process_local_data(NamedSharding(mesh, PartitionSpec("x")), local)
    space: dict[str, object] = {}
    exec(compile(CODE, cell_file(rank, way), "exec"), space)
    space["total"](x)


def cell_file(rank: int, way: str) -> str:
    """The file process ``rank`` compiles the code in."""
    folder = "ipykernel_1000" if way == "one" else f"ipykernel_{1000 + rank}"
    return f"/tmp/{folder}/2718281828.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def job(way: str) -> bool:
    """Run the job one way; print how it ended; whether every process returned."""
    port = free_port()
    start = time.monotonic()
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.collective_file_names",
                "--worker",
                str(rank),
                str(port),
                way,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for rank in range(PROCESSES)
    ]
    codes = []
    for process in workers:
        try:
            codes.append(process.wait(timeout=max(0.0, start + LIMIT - time.monotonic())))
        except subprocess.TimeoutExpired:
            codes.append(None)
    for process in workers:
        if process.poll() is None:
            process.kill()
            process.wait()
    if codes == [0] * PROCESSES:
        print(f"{WAYS[way]}: the job ended in {time.monotonic() - start:.1f} s")
    elif None in codes:
        print(f"{WAYS[way]}: no answer in {LIMIT:.0f} s (exit codes {codes})")
    else:
        print(f"{WAYS[way]}: a process failed (exit codes {codes})")
    return codes == [0] * PROCESSES


def main() -> int:
    import jax

    print(f"JAX {jax.__version__}, {PROCESSES} processes of 2 CPU devices")
    ended = {way: job(way) for way in WAYS}
    return 0 if ended["cluster"] else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(main())

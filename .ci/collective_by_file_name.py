"""Whether this JAX runs a collective that the processes of a job traced from source files of
different names, as ipykernel's cells are (``/tmp/ipykernel_<pid>/<hash>.py``).

Runs a jitted ``float(y.sum())`` over 4 local processes of 2 CPU devices each, the code
compiled under a file name per process (``--same-name``: one name for all). Prints the time
and exits 0 when every process returns within ``LIMIT`` seconds; else kills them (JAX handles
SIGTERM, so SIGKILL) and exits 1; exits 2 when a process fails. JAX 0.12.1 hangs there;
JAX 0.10.2 does not.
Usage: python .ci/collective_by_file_name.py [--same-name]
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


def worker(rank: int, port: int, name: str) -> None:
    """One process of the job: join it, then sum a global array with code compiled as ``name``."""
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec

    jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=PROCESSES, process_id=rank)
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    local = np.arange(2.0) + 10 * rank
    x = jax.make_array_from_process_local_data(NamedSharding(mesh, PartitionSpec("x")), local)
    space: dict[str, object] = {}
    exec(compile(CODE, name, "exec"), space)
    space["total"](x)


def name(rank: int, same: bool) -> str:
    """The file name process ``rank`` compiles the code under."""
    return "/tmp/job_cell.py" if same else f"/tmp/job_cell_{rank}.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(same_name: bool) -> int:
    port = free_port()
    start = time.monotonic()
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", str(rank), str(port), name(rank, same_name)],
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
    names = "one file name" if same_name else "a file name per process"
    if codes == [0] * PROCESSES:
        print(f"collective traced from {names}: the job ended in {time.monotonic() - start:.1f} s")
        return 0
    if any(code not in (0, None) for code in codes):
        print(f"collective traced from {names}: a process failed (exit codes {codes})")
        return 2
    print(f"collective traced from {names}: no answer in {LIMIT:.0f} s (exit codes {codes})")
    return 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(main("--same-name" in sys.argv[1:]))

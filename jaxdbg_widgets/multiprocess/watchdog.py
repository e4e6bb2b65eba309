"""The processes of a cluster end when the process that started them ends, however it ends.

``guard(cluster)`` starts a small process in a session of its own that waits on a pipe whose
only writer is this process. When this process exits, crashes or is killed (SIGKILL runs no
``atexit``, so ipyparallel's own shutdown never runs), the pipe closes: the watchdog stops the
cluster with ipyparallel's ``stop_cluster_sync`` for at most ``STOP_SECONDS``, then kills what
is left of it, controller, nannies and engines. A process is killed only if its PID and start
time both match one that was started for this cluster, so a reused PID is never touched.
Run as ``python -m jaxdbg_widgets.multiprocess.watchdog FD CLUSTER_FILE PID:START ...``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

STOP_SECONDS = 5.0

_writers: list[int] = []  # this process's ends of the watchdogs' pipes, open while it lives


def launched(cluster: Any) -> list[Any]:
    """The ``psutil.Process`` of each process ipyparallel launched for ``cluster``."""
    launchers = [cluster.controller, *_engine_launchers(cluster)]
    processes = [getattr(launcher, "process", None) for launcher in launchers if launcher]
    return [process for process in processes if process is not None]


def _engine_launchers(cluster: Any) -> list[Any]:
    engine_sets = (getattr(cluster, "engines", None) or {}).values()
    return [launcher for s in engine_sets for launcher in getattr(s, "launchers", {}).values()]


def guard(cluster: Any) -> None:
    """Start a watchdog that ends ``cluster``'s processes once this process is gone."""
    identities = [f"{p.pid}:{p.create_time()!r}" for p in launched(cluster)]
    read, write = os.pipe()
    try:
        subprocess.Popen(
            [sys.executable, "-m", __name__, str(read), cluster.cluster_file or "", *identities],
            pass_fds=(read,),
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except BaseException:
        os.close(write)
        raise
    finally:
        os.close(read)
    _writers.append(write)


def _ours(identities: list[str]) -> list[Any]:
    """The listed processes that still run, with every process under them."""
    import psutil

    found = []
    for identity in identities:
        pid, started = identity.split(":", 1)
        try:
            process = psutil.Process(int(pid))
            if repr(process.create_time()) != started:
                continue
            found += [process, *process.children(recursive=True)]
        except psutil.Error:
            continue
    return found


def _stop_politely(cluster_file: str) -> None:
    """ipyparallel's own stop, which also removes its files; given ``STOP_SECONDS`` at most."""
    if not cluster_file:
        return

    def stop() -> None:
        import ipyparallel

        ipyparallel.Cluster.from_file(cluster_file=cluster_file).stop_cluster_sync()

    thread = threading.Thread(target=stop, daemon=True)
    thread.start()
    thread.join(STOP_SECONDS)


def _kill(processes: list[Any]) -> None:
    import psutil

    for process in processes:
        try:
            process.kill()  # psutil checks the PID still names the same process
        except psutil.Error:
            continue


def main(argv: list[str]) -> None:
    fd, cluster_file, *identities = argv
    with os.fdopen(int(fd), "rb") as pipe:
        pipe.read()  # returns at end of file: the process that started the cluster is gone
    processes = _ours(identities)
    try:
        _stop_politely(cluster_file)
    finally:
        _kill(processes)


if __name__ == "__main__":
    main(sys.argv[1:])

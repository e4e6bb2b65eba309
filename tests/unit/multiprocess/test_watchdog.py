"""The watchdog kills what a cluster started once the pipe from its starter closes, and only
processes whose PID and start time both match."""

import os
import subprocess
import sys
import threading

import psutil

from jaxdbg_widgets.multiprocess import watchdog


def _sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])


def _identity(process: subprocess.Popen, shift: float = 0.0) -> str:
    return f"{process.pid}:{psutil.Process(process.pid).create_time() + shift!r}"


def test_a_closed_pipe_ends_the_listed_processes():
    sleeper = _sleeper()
    read, write = os.pipe()
    watching = threading.Thread(
        target=watchdog.main, args=([str(read), "", _identity(sleeper)],), daemon=True
    )
    watching.start()
    try:
        assert sleeper.poll() is None
        os.close(write)
        watching.join(30)
        assert not watching.is_alive()
        assert sleeper.wait(10) is not None
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_pid_whose_start_time_differs_is_never_touched():
    sleeper = _sleeper()
    try:
        assert watchdog._ours([_identity(sleeper, shift=1.0)]) == []
        assert [p.pid for p in watchdog._ours([_identity(sleeper)])] == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()

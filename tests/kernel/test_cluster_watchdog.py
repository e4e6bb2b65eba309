"""A kernel killed hard takes the cluster it started with it: controller, nannies and engines."""

import os
import signal
import time

import psutil
import pytest

from tests.fixtures.kernel import KernelSession
from tests.fixtures.multiprocess import _alive, _stop_by_pid
from tests.kernel.test_multiprocess_kernel import px_output

pytestmark = pytest.mark.kernel

START = """
import os, psutil
import jaxdbg_widgets as jdw
rc = jdw.cluster(2, 2, profile_dir={profile!r}, cluster_id="jaxdbg-watchdog", log_level=40,
                 timeout=240)
engines = rc[:].apply_sync(os.getpid)
nannies = [psutil.Process(pid).ppid() for pid in engines]
controller = [rc.cluster.controller.process.pid]
print("pids", os.getpid(), *engines, *nannies, *controller)
"""

PX_CELL = """%%px
import jax
print("process", jax.process_index(), "of", jax.process_count())
"""


def test_a_kernel_killed_with_sigkill_leaves_no_cluster_process(tmp_path):
    session = KernelSession()
    started: list[int] = []
    try:
        result = session.execute(START.format(profile=str(tmp_path)), timeout=300)
        assert result.error is None, result.error
        kernel_pid, *started = (int(p) for p in result.stdout.split("pids", 1)[1].split())
        assert len(started) == 5 and all(_alive(pid) for pid in started)
        ran = session.execute(PX_CELL, timeout=180)
        assert ran.error is None and "process 1 of 2" in px_output(ran), px_output(ran)

        os.kill(kernel_pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while any(_running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [pid for pid in started if _running(pid)] == [], "left running after the kernel"
    finally:
        session.close()
        _stop_by_pid(started)


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for its parent to read its exit status."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False

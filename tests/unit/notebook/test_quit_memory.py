"""Quitting a breakpoint session frees its arrays: five quits on a 100 MB input grow RSS < 50 MB.

RSS is read after ``malloc_trim``, so pages the allocator merely cached are not counted, and
as the lowest reading over 1.5 s, since XLA's threads free a failed run's buffers a moment
later.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent(
    """
    import ctypes, gc, os, time
    from IPython.core.interactiveshell import InteractiveShell
    from jaxdbg_widgets.debugger.serve import backend

    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jaxdbg", silent=True)
    shell.run_cell('''
    import jax, jax.numpy as jnp, numpy as np, jaxdbg_widgets as jdw
    @jax.jit
    def f(x):
        y = x * 2
        jax.debug.breakpoint()
        return y
    x = jnp.asarray(np.ones(25_000_000, np.float32))
    ''')

    def read_rss_mb():
        gc.collect()
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # freed pages back to the system: count live ones
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    def rss_mb():
        # XLA's threads free a failed run's buffers a moment after the exception reaches us:
        # the lowest reading over 1.5 s. What the session kept would stay in every reading.
        readings = []
        for _ in range(15):
            readings.append(read_rss_mb())
            time.sleep(0.1)
        return min(readings)

    before = rss_mb()
    for _ in range(5):
        backend.new_run()
        shell.run_cell('with jdw.script(["q"]):\\n    f(x).block_until_ready()\\n')
    print("GROWTH", rss_mb() - before)
    """
)


def test_five_quits_on_a_100_mb_input_keep_nothing():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("Quitting") == 5, result.stdout[-2000:]
    growth = float(result.stdout.rsplit("GROWTH", 1)[1])
    assert growth < 50, f"RSS grew by {growth:.0f} MB over five quits"

"""Prints still pending when the interpreter exits are not lost."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap


def test_pending_prints_are_flushed_at_exit():
    script = textwrap.dedent(
        """
        import jax, jax.numpy as jnp
        from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
        import jaxdbg_widgets as jdw
        mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
        x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))

        def slow(v):
            import time
            time.sleep(0.3)

        @jax.jit
        def f(v):
            jdw.callback(slow, v)
            jdw.print("last words {}", v.sum())
            return v

        f(x)
        """
    )
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "last words 28.0\n"


def test_a_failed_callback_at_exit_is_reported_once_and_exit_is_clean():
    script = textwrap.dedent(
        """
        import jax, jax.numpy as jnp
        from jax.sharding import AxisType, NamedSharding, PartitionSpec as P
        import jaxdbg_widgets as jdw
        mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
        x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))

        def fail(v):
            raise ValueError("late failure")

        jax.jit(lambda v: jdw.callback(fail, v.sum()))(x)
        """
    )
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0
    assert "a debug callback failed before exit" in done.stderr
    assert "Exception ignored in atexit" not in done.stderr

"""Breakpoints in plain Python scripts, with no ``%load_ext``: each script runs as a subprocess."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import textwrap
import time

import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry

SCRIPT = """
import jax, jax.numpy as jnp
import jaxdbg_widgets as jdw

@jax.jit
def f(x):
    y = x * 2
    {breakpoint}
    return y + 1

{run}
print("result", f(jnp.arange(3.0)).tolist(), flush=True)
"""
OURS = "jdw.breakpoint()"
CONTINUED = "continued: no front end can answer (headless policy 'continue'"


def _script(tmp_path, breakpoint: str = OURS, run: str = "") -> str:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(SCRIPT).format(breakpoint=breakpoint, run=run))
    return str(path)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("JAXDBG_HEADLESS", "JAXDBG_SCRIPT")}
    return env | extra


def _run(path: str, stdin=subprocess.DEVNULL, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, path],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(**env),
    )


def test_no_terminal_applies_the_headless_policy(tmp_path):
    done = _run(_script(tmp_path))
    assert done.returncode == 0, done.stderr
    assert CONTINUED in done.stdout
    assert "result [1.0, 3.0, 5.0]" in done.stdout


def test_an_open_pipe_that_never_sends_does_not_hang(tmp_path):
    process = subprocess.Popen(
        [sys.executable, _script(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    try:
        out, err = process.communicate(timeout=120)  # stdin stays open until the process ends
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert CONTINUED in out


def test_a_script_block_answers_the_breakpoint(tmp_path):
    run = "with jdw.script(['p y', 'c']):\n    f(jnp.arange(3.0)).block_until_ready()"
    done = _run(_script(tmp_path, run=run))
    assert done.returncode == 0, done.stderr
    assert "(jdb) p y\nArray([0., 2., 4.], dtype=float32)" in done.stdout


def test_headless_raise_stops_the_script(tmp_path):
    done = _run(_script(tmp_path), JAXDBG_HEADLESS="raise")
    assert done.returncode != 0
    assert "DebuggerQuit" in done.stderr
    assert "result" not in done.stdout


def test_breakpoint_if_follows_the_same_policy(tmp_path):
    done = _run(_script(tmp_path, breakpoint="jdw.breakpoint_if(y.sum() > 0)"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(CONTINUED) == 1


def test_jax_debug_breakpoint_stays_jaxs_without_a_script_or_policy(tmp_path):
    done = _run(_script(tmp_path, breakpoint="jax.debug.breakpoint()"))
    assert "Entering jdb" in done.stdout  # JAX's terminal debugger, which quits at end of input
    assert "jaxdbg:" not in done.stdout + done.stderr


def test_jax_debug_breakpoint_follows_a_headless_policy_or_script(tmp_path):
    path = _script(tmp_path, breakpoint="jax.debug.breakpoint()")
    headless = _run(path, JAXDBG_HEADLESS="continue")
    assert headless.returncode == 0, headless.stderr
    assert CONTINUED in headless.stdout
    run = "with jdw.script(['p y', 'c']):\n    f(jnp.arange(3.0)).block_until_ready()"
    scripted = _run(_script(tmp_path, breakpoint="jax.debug.breakpoint()", run=run))
    assert "(jdb) p y" in scripted.stdout


def test_an_interactive_terminal_gets_the_typed_prompt(tmp_path):
    main, replica = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, _script(tmp_path)],
        stdin=replica,
        stdout=replica,
        stderr=replica,
        env=_env(),
    )
    os.close(replica)
    output = b""
    sent = False
    deadline = time.monotonic() + 120
    try:
        while process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    output += os.read(main, 4096)
                except OSError:
                    break
            if not sent and b"(jdb) " in output:
                os.write(main, b"p y\nc\n")
                sent = True
        process.wait(timeout=30)
    finally:
        process.kill()
        os.close(main)
    text = output.decode(errors="replace").replace("\r\n", "\n")
    assert "Breakpoint 1 at f" in text
    assert "Array([0., 2., 4.], dtype=float32)" in text
    assert "result [1.0, 3.0, 5.0]" in text


def test_under_pytest_without_the_extension_a_breakpoint_continues(capsys):
    import jax
    import jax.numpy as jnp

    assert jax_registry.default_backend() == "jaxdbg"
    jax.jit(lambda x: jdw.breakpoint() or x)(jnp.ones(2)).block_until_ready()
    jax.effects_barrier()
    assert CONTINUED in capsys.readouterr().out


@pytest.mark.parametrize("name", ["cli"])
def test_other_backends_stay_registered(name):
    assert name in dict(jax_registry.backends())

"""Prints from sharded computations land in the cell that dispatched them (8 simulated devices)."""

import pytest

pytestmark = pytest.mark.kernel

SETUP = """
import threading, time
import jax, jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(jax.devices(), ("x",))
x = jax.device_put(jnp.ones((8, 256)), NamedSharding(mesh, P("x")))

@jax.jit
def slow(x):
    y = jax.lax.fori_loop(0, 400, lambda i, a: jnp.tanh(a @ a.T @ a), x)
    jax.debug.print("finished total={t}", t=y.sum())
    return y

slow(x).block_until_ready()
print(len(jax.devices()))
"""


def _dispatch_then_next_cell(kernel):
    dispatch = kernel.start("r = slow(x)")
    following = kernel.start("time.sleep(3); print('next cell')")
    kernel.wait(dispatch)
    kernel.wait(following)
    return dispatch, following


GATED = """
import numpy as np
from jax.experimental import io_callback

gate, inside_the_call, returned_first = threading.Event(), threading.Event(), []

def wait_for_gate(s):
    opened = gate.wait(timeout=5)
    returned_first.append(opened and not inside_the_call.is_set())
    return np.zeros((), s.dtype)

@jax.jit
def gated(x):
    opened = io_callback(wait_for_gate, jax.ShapeDtypeStruct((), x.dtype), x.sum())
    jax.debug.print("finished total={t}", t=(x + opened).sum())
    return x + opened

# Does this JAX return from a call (a compiled one, as the test's) before the computation runs
# its callbacks? The gate opens once the call has returned; a JAX that runs the computation
# inside the call waits out the gate's timeout instead, and the callback sees the call under way.
gate.set(); gated(x); jax.effects_barrier(); gate.clear()
inside_the_call.set(); gated(x); inside_the_call.clear(); gate.set()
jax.effects_barrier(); gate.clear()
print(returned_first[-1], jax.__version__)
"""


def test_without_the_extension_a_late_print_escapes_to_the_next_cell(kernel):
    assert kernel.execute(SETUP).stdout.strip().endswith("8")
    asynchronous, version = kernel.execute(GATED).stdout.split()[-2:]
    if asynchronous != "True":
        pytest.skip(f"JAX {version} runs this computation inside the call: no print is late")
    # The computation prints only after the next cell opens its gate: the print is late by
    # construction, never by a race between the computation and the cell's reply.
    dispatch = kernel.start("r = gated(x)")
    following = kernel.start("gate.set(); jax.effects_barrier(); print('next cell')")
    kernel.wait(dispatch)
    kernel.wait(following)
    assert "finished" not in dispatch.stdout
    assert "finished total=2048.0" in following.stdout


def test_with_the_extension_a_late_sharded_print_lands_in_its_own_cell(kernel):
    kernel.execute("%load_ext jaxdbg")
    assert kernel.execute(SETUP).stdout.strip().endswith("8")
    dispatch, following = _dispatch_then_next_cell(kernel)
    assert dispatch.stdout == "finished total=2048.0\n"
    assert following.stdout == "next cell\n"
    [stream] = [m for m in dispatch.of_type("stream") if "finished" in m["content"]["text"]]
    assert stream["parent_header"]["msg_id"] == dispatch.msg_id


def test_the_print_ran_on_a_worker_thread_and_is_logged_with_its_cell(kernel):
    kernel.execute("%load_ext jaxdbg")
    kernel.execute(SETUP)
    dispatch, _ = _dispatch_then_next_cell(kernel)
    count = dispatch.reply["content"]["execution_count"]
    check = kernel.execute(
        "from jaxdbg_widgets.notebook.session_log import session_log\n"
        "entry = session_log().snapshot()[-1]\n"
        "print(entry.text, entry.cell, entry.thread_id not in (None, threading.main_thread().ident))"
    )
    assert check.stdout == f"finished total=2048.0 {count} True\n"


def test_shard_map_prints_once_per_device_in_the_dispatching_cell(kernel):
    kernel.execute("%load_ext jaxdbg")
    kernel.execute(SETUP)
    result = kernel.execute(
        "from jax.experimental.shard_map import shard_map\n"
        "def per_device(block):\n"
        "    jax.debug.print('block sum {s}', s=block.sum())\n"
        "    return block\n"
        "f = jax.jit(shard_map(per_device, mesh=mesh, in_specs=P('x'), out_specs=P('x')))\n"
        "_ = f(jnp.arange(64.0).reshape(8, 8))"
    )
    assert result.error is None, result.error
    lines = result.stdout.splitlines()
    expected = {f"block sum {sum(range(8 * i, 8 * i + 8))}.0" for i in range(8)}
    assert sorted(lines) == sorted(expected)


def test_jax_debug_print_is_ours_while_loaded_and_restored_after(kernel):
    probe = "import jax; print(jax.debug.print.__module__)"
    before = kernel.execute(probe).stdout
    kernel.execute("%load_ext jaxdbg")
    assert kernel.execute(probe).stdout == "jaxdbg_widgets.core.printing\n"
    kernel.execute("%unload_ext jaxdbg")
    assert kernel.execute(probe).stdout == before
    assert before == "jax._src.debugging\n"


def test_single_device_prints_run_on_the_main_thread_and_are_logged(kernel):
    kernel.execute("%load_ext jaxdbg")
    kernel.execute(SETUP)
    result = kernel.execute(
        "import jaxdbg_widgets as jdw\n"
        "from jaxdbg_widgets.notebook.session_log import session_log\n"
        "jax.jit(lambda v: jdw.print('one device {v}', v=v))(jnp.arange(2))\n"
        "entry = session_log().snapshot()[-1]\n"
        "print(entry.text, entry.cell, entry.thread_id)"
    )
    count = result.reply["content"]["execution_count"]
    assert result.stdout == f"one device [0 1]\none device [0 1] {count} None\n"


def test_a_late_jax_debug_callback_also_lands_in_its_cell(kernel):
    kernel.execute("%load_ext jaxdbg")
    kernel.execute(SETUP)
    kernel.execute(
        "@jax.jit\n"
        "def slow_callback(x):\n"
        "    y = jax.lax.fori_loop(0, 400, lambda i, a: jnp.tanh(a @ a.T @ a), x)\n"
        "    jax.debug.callback(lambda s: print('callback saw', s), y.sum())\n"
        "    return y\n"
        "slow_callback(x).block_until_ready()"
    )
    dispatch = kernel.start("r = slow_callback(x)")
    following = kernel.start("time.sleep(3); print('next cell')")
    kernel.wait(dispatch)
    kernel.wait(following)
    assert dispatch.stdout == "callback saw 2048.0\n"
    assert following.stdout == "next cell\n"


def test_a_failed_callback_is_reported_once_at_the_end_of_its_cell(kernel):
    kernel.execute("%load_ext jaxdbg")
    kernel.execute(SETUP)
    kernel.execute(
        "def explode(s):\n"
        "    raise ValueError('bad value')\n"
        "@jax.jit\n"
        "def failing(x):\n"
        "    jax.debug.callback(explode, x.sum())\n"
        "    return x\n"
    )
    failed = kernel.execute("_ = failing(x)")
    after = kernel.execute("print('still fine')")
    assert failed.stderr.splitlines()[-1] == (
        "jaxdbg: a computation started in this cell failed: ValueError: bad value"
    )
    assert after.stdout == "still fine\n"
    assert after.stderr == ""

"""An out-of-memory error in a real ipykernel: JAX's error kept exactly, then the live arrays,
largest first, with the variables that hold them; the kernel stays usable."""

import re

import pytest

pytestmark = pytest.mark.kernel

SETUP = """
import jax.numpy as jnp
big = jnp.ones((512, 1024))
params = {"w": big, "b": jnp.ones((7,))}
"""
TOO_BIG = "jnp.ones((2**38,))"  # 1 TiB of float32: CPU's allocator refuses it


def _ok(result):
    assert result.error is None, result.error
    return result


def test_out_of_memory_keeps_jaxs_error_and_lists_the_live_arrays(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    plain = shared_kernel.execute(TOO_BIG).error
    assert plain is not None and "RESOURCE_EXHAUSTED" in plain["evalue"]

    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    shown = shared_kernel.execute(TOO_BIG)
    error = shown.error
    assert (error["ename"], error["evalue"]) == (plain["ename"], plain["evalue"])
    types = [m["msg_type"] for m in shown.messages]
    [text] = shown.data("text/plain")
    assert types.index("error") < types.index("display_data")  # the error first, then the list
    rows = [line for line in text.splitlines() if line.startswith("  ")]
    assert "big" in rows[0] and "params['w']" in rows[0]
    assert "float32[512,1024]" in rows[0]
    b_row = next(i for i, row in enumerate(rows) if "params['b']" in row)
    assert b_row > 0

    after = _ok(shared_kernel.execute("print(float(jnp.ones((4,)).sum()))"))
    assert after.stdout.strip() == "4.0"


def test_peak_magic_names_the_cell_line_and_runs_nothing(shared_kernel):
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    _ok(
        shared_kernel.execute(
            "import jax\n"
            "import jax.numpy as jnp\n"
            "def step(x):\n"
            "    return jnp.sort(jnp.sin(jnp.outer(x, x)), axis=0)[-1]\n"
            "x = jax.ShapeDtypeStruct((1 << 16,), jnp.float32)\n"
        )
    )
    shown = _ok(shared_kernel.execute("%jaxdbg peak step(x)"))
    [text] = shown.data("text/plain")
    [markup] = shown.data("text/html")
    # the cell and line, not a temporary file (JAX 0.7's metadata names no function after it)
    assert re.search(r"In\[\d+\]:4\b", text), text
    # a 65536 x 65536 float32 temporary the sort needs whole, never allocated
    assert "16.0 GiB" in text
    assert "In[" in markup
    bad = shared_kernel.execute("%jaxdbg peak step")
    assert "not a call" in bad.stderr + str(bad.error)


COMPILED_SETUP = """
import jax
import jax.numpy as jnp
def outer_sorted(x):
    return jnp.sort(jnp.outer(x, x), axis=0)[-1]
step = jax.jit(outer_sorted)
x = jnp.ones((1 << 20,), jnp.float32)
"""


def test_out_of_memory_in_a_compiled_call_is_followed_by_its_peak_report(shared_kernel):
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    _ok(shared_kernel.execute(COMPILED_SETUP))
    shown = shared_kernel.execute("step(x).block_until_ready()")
    assert shown.error is not None and "Out of memory" in shown.error["evalue"]
    assert "the peak of step(x), compiled again without running:" in shown.stdout
    texts = shown.data("text/plain")
    assert any(t.startswith("live arrays when memory ran out") for t in texts)
    # 4 TiB for the outer product; JAX 0.7's XLA copies it for the sort (8 TiB)
    [peak] = [t for t in texts if re.search(r"peak [48]\.00 TiB per device", t)]
    assert "agrees with XLA's memory analysis" in peak
    # the return line of the cell (JAX 0.7's metadata names no function after it)
    assert re.search(r"In\[\d+\]:4\b", peak), peak
    after = _ok(shared_kernel.execute("print(float(jnp.ones((4,)).sum()))"))
    assert after.stdout.strip() == "4.0"

"""``%jaxdbg compiles`` inside a real ipykernel: recording from ``%load_ext jaxdbg``, cell call
sites as ``In[n]:line``, the cause of a retrace, and ``clear``."""

import re

import pytest

pytestmark = pytest.mark.kernel

DEFINE = """
import jax, jax.numpy as jnp
step = jax.jit(lambda batch: batch.sum())
"""


def _ok(result):
    assert result.error is None, result.error
    return result


def test_the_kernel_report_names_cells_causes_and_clears(shared_kernel):
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    _ok(shared_kernel.execute("%jaxdbg compiles clear"))
    _ok(shared_kernel.execute(DEFINE))
    _ok(shared_kernel.execute("x = jnp.ones((32, 3))\nstep(x)"))
    _ok(shared_kernel.execute("y = jnp.ones((7, 3))\n\nstep(y)"))
    shown = _ok(shared_kernel.execute("%jaxdbg compiles"))
    [text] = shown.data("text/plain")
    assert "batch: f32[32,3] → f32[7,3]" in text
    cells = sorted({int(n) for n, line in re.findall(r"In\[(\d+)\]:(\d+)", text) if line == "3"})
    assert cells, text  # the second call, on line 3 of its cell
    [markup] = shown.data("text/html")
    assert "batch: f32[32,3] → f32[7,3]" in markup
    _ok(shared_kernel.execute("%jaxdbg compiles clear"))
    [empty] = _ok(shared_kernel.execute("%jaxdbg compiles")).data("text/plain")
    assert "nothing was traced or compiled" in empty

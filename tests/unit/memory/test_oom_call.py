"""The jitted call an out-of-memory error came from, read off the failing line, and its peak
report; a real allocation failure on CPU (4 TiB), compiled again without running."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.memory import oom, oom_call
from jaxdbg_widgets.memory.units import human_bytes


def _sorted_outer(x):
    return jnp.sort(jnp.outer(x, x), axis=0)[-1]  # a 4 TiB temporary XLA cannot fuse away


@pytest.fixture(scope="module")
def x():
    return jnp.ones((1 << 20,), jnp.float32)  # an outer product of 4 TiB


def _traceback(run):
    with pytest.raises(jax.errors.JaxRuntimeError) as caught:
        run()
    assert oom.is_out_of_memory(caught.value)
    return caught.value.__traceback__


def test_the_jitted_call_on_the_failing_line_gets_its_peak_report(x):
    step = jax.jit(_sorted_outer)
    tb = _traceback(lambda: step(x).block_until_ready())
    call = oom_call.failing_call(tb)
    assert call is not None and call.text == "step(x)"
    assert call.function is step and call.args == (x,)
    peak = call.peak()
    report, text = peak.report, peak.to_text()
    assert report.agrees and report.peak_bytes >= 4 * 2**40  # the outer product at least
    assert f"peak {human_bytes(report.peak_bytes)} per device" in text
    line = _sorted_outer.__code__.co_firstlineno + 1
    assert f"test_oom_call.py:{line}" in text  # the line


def test_a_line_with_no_jitted_call_gets_none():
    shape = (1 << 40,)
    tb = _traceback(lambda: jnp.ones(shape).block_until_ready())  # jnp.ones has no lowering
    assert oom_call.failing_call(tb) is None


def test_arguments_that_would_run_code_are_not_read(x):
    step = jax.jit(_sorted_outer)
    made = []

    def make():
        made.append(1)
        return x

    tb = _traceback(lambda: step(make()).block_until_ready())
    assert oom_call.failing_call(tb) is None and made == [1]  # only the failing call ran it

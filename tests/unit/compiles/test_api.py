"""watch_compiles and max_compiles: guards, messages and bad input."""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.compiles import recorder


def _here() -> int:
    return sys._getframe(1).f_lineno


def test_watching_nested_in_itself_is_one_clear_error():
    with (
        jdw.watch_compiles(),
        pytest.raises(RuntimeError, match="already watching on this thread"),
        jdw.watch_compiles(),
    ):
        pass
    assert recorder.active() == ()
    with jdw.watch_compiles():  # and watching again afterwards works
        pass


def test_watch_compiles_rejects_a_hlo_that_is_not_a_bool():
    with (
        pytest.raises(TypeError, match="takes True or False, got 'yes'"),
        jdw.watch_compiles(hlo="yes"),
    ):
        pass


@pytest.mark.parametrize(
    ("n", "error", "match"),
    [
        (1.5, TypeError, "needs an int n, got float 1.5"),
        ("2", TypeError, "needs an int n, got str '2'"),
        (True, TypeError, "needs an int n, got bool"),
        (-1, ValueError, "needs n >= 0, got -1"),
    ],
)
def test_max_compiles_rejects_bad_n_in_one_line(n, error, match):
    with pytest.raises(error, match=match) as raised:
        jdw.max_compiles(n)
    assert "\n" not in str(raised.value)


def test_the_compile_past_n_raises_naming_function_call_site_count_and_cause():
    @jax.jit
    def step(batch):
        return batch * 2

    step(jnp.ones((4, 3)))  # compiled before the block: not counted
    with pytest.raises(jdw.TooManyCompiles) as raised, jdw.max_compiles(1):
        step(jnp.ones((8, 3)))
        line = _here() + 1
        step(jnp.ones((9, 3)))
    message = str(raised.value)
    assert "step" in message and "compiled 2 times" in message and "max_compiles(1)" in message
    assert f"test_api.py:{line}" in message
    assert "batch: f32[8,3] → f32[9,3]" in message
    assert raised.value.count == 2 and recorder.active() == ()


def test_the_decorator_counts_over_every_call():
    @jdw.max_compiles(1)
    @jax.jit
    def f(x):
        return x + 1

    f(jnp.ones(3))
    f(jnp.ones(3))
    with pytest.raises(jdw.TooManyCompiles, match=r"x: f32\[3\] → f32\[4\]"):
        f(jnp.ones(4))
    assert f.compile_report.count("compile") >= 2


def test_max_compiles_zero_refuses_any_compile_and_skips_jax_eager_ops():
    with jdw.max_compiles(0):
        jnp.ones(5) + 1  # JAX's own operations outside jit are not counted
        with pytest.raises(jdw.TooManyCompiles, match="compiled 1 times"):
            jax.jit(lambda x: x * 7)(jnp.ones(5))


def test_a_new_lambda_in_a_loop_counts_as_one_function():
    with pytest.raises(jdw.TooManyCompiles, match="a new function object"), jdw.max_compiles(1):
        for _ in range(3):
            jax.jit(lambda x: x / 3)(jnp.ones(2))


def test_within_the_limit_nothing_is_raised_and_the_program_runs():
    f = jax.jit(lambda x: x * 11)
    with jdw.max_compiles(2) as report:
        assert f(jnp.ones(2)).tolist() == [11.0, 11.0]
        assert f(jnp.ones(3)).tolist() == [11.0] * 3
    assert report.count("compile") >= 2


def test_a_guard_that_raises_leaves_no_other_report_short_of_the_compile():
    f = jax.jit(lambda x: x - 7)
    with (
        jdw.max_compiles(0) as guard,  # the guard starts first, so it is told first
        jdw.watch_compiles() as report,
        pytest.raises(jdw.TooManyCompiles),
    ):
        f(jnp.ones(2))
    assert guard.count("compile") == report.count("compile") >= 1

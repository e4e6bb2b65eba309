"""``jaxdbg_widgets.print`` prints what ``jax.debug.print`` prints, program by program."""

from __future__ import annotations

import inspect

import jax
import numpy as np
from jax import lax
from jax import numpy as jnp

from tests.unit.core.parity import both, needs_jax

SKIP_FORMAT_CHECK = "skip_format_check" in inspect.signature(jax.debug.print).parameters


def test_jit(capfd):
    def program(dbg):
        @jax.jit
        def f(x):
            dbg.print("x = {}", x)
            return x + 1

        f(jnp.arange(3.0))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_nested_jit(capfd):
    def program(dbg):
        @jax.jit
        def inner(x):
            dbg.print("inner {}", x)
            return x * 2

        @jax.jit
        def outer(x):
            dbg.print("outer {}", x)
            return inner(x) + 1

        outer(jnp.float32(1.5))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_positional_and_named_fields(capfd):
    def program(dbg):
        jax.jit(lambda x, y: dbg.print("{1} then {0} and {z}", x, y, z=x + y))(1, 2)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_format_spec(capfd):
    def program(dbg):
        jax.jit(lambda x: dbg.print("{x:.2f} {y:>8.3e}", x=x, y=x * 1000))(jnp.float32(3.14159))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_pytrees(capfd):
    def program(dbg):
        tree = {"a": jnp.arange(2), "b": (jnp.float32(1.0), [jnp.ones(2)])}
        jax.jit(lambda t: dbg.print("tree {t} a={t[a]}", t=t))(tree)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_static_non_array_arguments(capfd):
    def program(dbg):
        jax.jit(lambda x: dbg.print("{} {} {}", "label", None, x))(jnp.int32(4))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_numpy_print_options_captured_at_trace_time(capfd):
    def program(dbg):
        f = jax.jit(lambda x: dbg.print("{}", x))
        with np.printoptions(precision=2, suppress=True):
            f(jnp.array([1.0 / 3.0, 2e-9]))
        f(jnp.array([1.0 / 3.0, 2e-9]))

    expected, ours = both(capfd, program)
    assert "0.33" in expected
    assert ours == expected


@needs_jax("skip_format_check", SKIP_FORMAT_CHECK)
def test_no_placeholder_form_with_skip_format_check(capfd):
    def program(dbg):
        jax.jit(lambda x, y: dbg.print("values:", x, y, skip_format_check=True))(1.0, 2)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_vmap_one_call_per_element_in_jax_order(capfd):
    def program(dbg):
        def f(x):
            dbg.print("x: {}", x)
            dbg.print("y: {}", x * 10)

        jax.vmap(f)(jnp.arange(3))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_nested_vmap(capfd):
    def program(dbg):
        jax.vmap(jax.vmap(lambda x: dbg.print("e {}", x)))(jnp.arange(6).reshape(2, 3))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_vmap_in_axes(capfd):
    def program(dbg):
        f = jax.vmap(lambda x, y: dbg.print("{} {}", x, y), in_axes=(1, None))
        jax.jit(f)(jnp.arange(6).reshape(2, 3), jnp.float32(7))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_lax_map(capfd):
    def program(dbg):
        jax.jit(lambda xs: lax.map(lambda x: dbg.print("m {}", x) or x, xs))(jnp.arange(3))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_scan(capfd):
    def program(dbg):
        def step(carry, x):
            dbg.print("carry {} x {}", carry, x)
            return carry + x, None

        jax.jit(lambda xs: lax.scan(step, 0, xs))(jnp.arange(4))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_fori_loop(capfd):
    def program(dbg):
        def body(i, acc):
            dbg.print("i={} acc={}", i, acc)
            return acc + i

        jax.jit(lambda n: lax.fori_loop(0, n, body, 0))(3)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_while_loop_body_and_cond(capfd):
    def program(dbg):
        def cond(x):
            dbg.print("cond {}", x)
            return x < 3

        def body(x):
            dbg.print("body {}", x)
            return x + 1

        jax.jit(lambda x: lax.while_loop(cond, body, x))(0)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_cond(capfd):
    def program(dbg):
        def f(x):
            return lax.cond(
                x > 0,
                lambda v: dbg.print("positive {}", v) or v,
                lambda v: dbg.print("not positive {}", v) or v,
                x,
            )

        jax.jit(f)(1)
        jax.jit(f)(-1)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_vmap_of_cond_prints_every_branch(capfd):
    def program(dbg):
        def f(x):
            return lax.cond(
                x > 0,
                lambda v: dbg.print("yes {}", v) or v,
                lambda v: dbg.print("no {}", v) or v,
                x,
            )

        jax.vmap(f)(jnp.array([-1, 2]))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_switch(capfd):
    def program(dbg):
        branches = [lambda v, k=k: dbg.print("branch {} got {}", k, v) or v for k in range(3)]
        f = jax.jit(lambda i, x: lax.switch(i, branches, x))
        for i in range(3):
            f(i, i * 10)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_repr_conversion_and_attribute_fields(capfd):
    def program(dbg):
        def f(x, t):
            return dbg.print("{x!r} {x.dtype} {x.shape} {t!r}", x=x, t=t)

        jax.jit(f)(jnp.arange(2.0), (jnp.int32(1),))

    expected, ours = both(capfd, program)
    assert "Array(" in expected
    assert ours == expected


@needs_jax("skip_format_check", SKIP_FORMAT_CHECK)
def test_no_placeholder_form_with_containers(capfd):
    def program(dbg):
        def f(x):
            return dbg.print("tree:", {"a": x}, [x, "s"], skip_format_check=True)

        jax.jit(f)(jnp.float32(2.0))

    expected, ours = both(capfd, program)
    assert ours == expected

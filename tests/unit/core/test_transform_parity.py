"""Under autodiff and remat, ours prints where ``jax.debug`` prints, and what it prints."""

from __future__ import annotations

from functools import partial

import jax
from jax import numpy as jnp

from tests.unit.core.parity import both


def test_jvp_prints_primals_only(capfd):
    def program(dbg):
        def f(x):
            dbg.print("x {}", x)
            return jnp.sin(x)

        jax.jvp(f, (1.0,), (1.0,))
        jax.jit(lambda x, t: jax.jvp(f, (x,), (t,)))(2.0, 1.0)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_linearize_prints_primals_only(capfd):
    def program(dbg):
        def f(x):
            dbg.print("x {}", x)
            return x * x

        _, f_lin = jax.linearize(f, 3.0)
        f_lin(1.0)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_grad_prints_forward_pass_only(capfd):
    def program(dbg):
        def f(x):
            dbg.print("forward {}", x)
            return (x**2).sum()

        jax.grad(f)(jnp.arange(3.0))
        jax.jit(jax.grad(f))(jnp.arange(3.0))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_staged_custom_jvp_rule_prints_where_it_runs(capfd):
    def program(dbg):
        @jax.custom_jvp
        def f(x):
            dbg.print("primal {}", x)
            return jnp.sin(x)

        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            dbg.print("jvp rule {} {}", x, t)
            return f(x), jnp.cos(x) * t

        jax.jit(f)(1.0)
        jax.jit(jax.grad(f))(1.0)

    expected, ours = both(capfd, program)
    assert ours == expected


def test_staged_custom_vjp_rules_print_where_they_run(capfd):
    def program(dbg):
        @jax.custom_vjp
        def f(x):
            return x * 2

        def fwd(x):
            dbg.print("fwd {}", x)
            return x * 2, x

        def bwd(x, g):
            dbg.print("bwd {} {}", x, g)
            return (g * 2,)

        f.defvjp(fwd, bwd)
        jax.jit(jax.grad(f))(3.0)

    expected, ours = both(capfd, program)
    assert ours == expected


def _remat_program(policy, dbg):
    @partial(jax.checkpoint, policy=policy)
    def f(x):
        y = jnp.sin(x)
        dbg.print("y {}", y)
        return jnp.sin(y)

    jax.jit(jax.grad(f))(1.0)


def test_remat_everything_saveable_prints_once(capfd):
    expected, ours = both(
        capfd, partial(_remat_program, jax.checkpoint_policies.everything_saveable)
    )
    assert ours == expected
    assert ours.count("y ") == 1


def test_remat_nothing_saveable_prints_twice(capfd):
    expected, ours = both(capfd, partial(_remat_program, jax.checkpoint_policies.nothing_saveable))
    assert ours == expected
    assert ours.count("y ") == 2

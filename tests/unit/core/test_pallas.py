"""Prints, callbacks and breakpoints inside Pallas kernels.

A kernel for GPU or TPU lowers only primitives Pallas knows, so inside a kernel our print and
callback stage JAX's own; in interpret mode our breakpoint works like anywhere else.
"""

from __future__ import annotations

import jax
import pytest
from jax import numpy as jnp
from jax.experimental import pallas as pl

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.callbacks import jax_debug_callback
from jaxdbg_widgets.core.printing import jax_debug_print

STAGE = {
    "jdw.print": lambda v: jdw.print("in kernel {}", v),
    "print stand-in": lambda v: jax_debug_print("in kernel {}", v),
    "jdw.callback": lambda v: jdw.callback(lambda a: print("in kernel", a), v),
    "callback stand-in": lambda v: jax_debug_callback(lambda a: print("in kernel", a), v),
}


def _doubling(stage, *, interpret: bool):
    def kernel(x_ref, o_ref):
        stage(x_ref[...])
        o_ref[...] = x_ref[...] * 2

    out_shape = jax.ShapeDtypeStruct((4,), jnp.float32)
    return pl.pallas_call(kernel, out_shape=out_shape, interpret=interpret)


@pytest.mark.parametrize("stage", STAGE.values(), ids=STAGE.keys())
def test_a_kernel_for_an_accelerator_stages_jax_own_primitive(stage):
    jaxpr = str(jax.make_jaxpr(_doubling(stage, interpret=False))(jnp.ones(4)))
    assert "jaxdbg_" not in jaxpr
    assert "debug_print" in jaxpr or "debug_callback" in jaxpr


@pytest.mark.parametrize("stage", STAGE.values(), ids=STAGE.keys())
def test_prints_in_interpret_mode(capfd, stage):
    out = jax.jit(_doubling(stage, interpret=True))(jnp.arange(4.0))
    jax.effects_barrier()
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0]
    assert capfd.readouterr().out == "in kernel [0. 1. 2. 3.]\n"


def test_our_primitive_is_used_outside_kernels():
    assert "jaxdbg_print[" in str(jax.make_jaxpr(lambda v: jdw.print("{}", v))(1.0))


def test_breakpoint_in_an_interpreted_kernel_sees_its_locals():
    seen = []
    undo = jax_registry.register(
        "kernel-recorder", lambda frames, *_, **__: seen.append(frames), -100
    )

    def kernel(x_ref, o_ref):
        y = x_ref[...] * 2
        jdw.breakpoint(backend="kernel-recorder", num_frames=1)
        o_ref[...] = y

    try:
        out_shape = jax.ShapeDtypeStruct((4,), jnp.float32)
        pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(jnp.arange(4.0))
        jax.effects_barrier()
    finally:
        undo()
    ((frame,),) = seen
    assert frame.function == "kernel"
    assert frame.locals["y"].tolist() == [0.0, 2.0, 4.0, 6.0]

"""A printed jaxpr names each debug call for what it is, as JAX's own primitives do."""

from __future__ import annotations

import jax
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core.callbacks import jax_debug_callback
from jaxdbg_widgets.core.printing import jax_debug_print


def show(x):
    del x


CASES = {
    "print": (lambda x: jdw.print("x={x}", x=x), "jaxdbg_print", "print('x={x}')"),
    "jax.debug.print": (lambda x: jax_debug_print("x={}", x), "jaxdbg_print", "print('x={}')"),
    "log": (lambda x: jdw.log("x={}", x), "jaxdbg_log", "log('x={}')"),
    "callback": (lambda x: jdw.callback(show, x), "jaxdbg_callback", "show"),
    "jax.debug.callback": (lambda x: jax_debug_callback(show, x), "jaxdbg_callback", "show"),
    "breakpoint": (
        lambda x: jdw.breakpoint(backend="cli"),
        "jaxdbg_breakpoint",
        "breakpoint(backend='cli')",
    ),
    "breakpoint_if": (
        lambda x: jdw.breakpoint_if(x > 0),
        "jaxdbg_breakpoint",
        "breakpoint(backend=None)",
    ),
}


@pytest.mark.parametrize(("program", "primitive", "callback"), CASES.values(), ids=CASES.keys())
def test_each_debug_call_reads_as_itself(program, primitive, callback):
    text = str(jax.make_jaxpr(program)(1.0))
    lines = [line.strip() for line in text.splitlines()]
    assert f"{primitive}[" in lines
    assert f"callback={callback}" in lines
    assert "<function" not in text

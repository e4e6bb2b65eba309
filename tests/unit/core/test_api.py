"""The public surface: signatures compatible with ``jax.debug``, eager use, effect types."""

from __future__ import annotations

import inspect

import jax
import numpy as np
import pytest
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit
from tests.unit.core.parity import TWO_CALL_FORM, both, needs_jax


def _public_parameters(fn):
    return {
        name: (p.kind, p.default)
        for name, p in inspect.signature(fn).parameters.items()
        if not name.startswith("_")
    }


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        pytest.param(jdw.print, jax.debug.print, marks=needs_jax("two-call form", TWO_CALL_FORM)),
        pytest.param(
            jdw.callback, jax.debug.callback, marks=needs_jax("two-call form", TWO_CALL_FORM)
        ),
        pytest.param(
            jdw.log,
            getattr(jax.debug, "log", None),
            marks=needs_jax("log", hasattr(jax.debug, "log")),
        ),
        (jdw.breakpoint, jax.debug.breakpoint),
    ],
    ids=["print", "callback", "log", "breakpoint"],
)
def test_signatures_extend_jax_debug(ours, theirs):
    mine, jax_params = _public_parameters(ours), _public_parameters(theirs)
    assert {k: v for k, v in mine.items() if k in jax_params} == jax_params
    assert set(mine) - set(jax_params) == {"vmap_method"}


@needs_jax("OrderedDebugEffect export", hasattr(jax.debug, "OrderedDebugEffect"))
def test_effect_types_are_jax_debugs():
    assert jdw.DebugEffect is jax.debug.DebugEffect
    assert jdw.OrderedDebugEffect is jax.debug.OrderedDebugEffect


def test_eager_print_and_callback(capfd):
    def program(dbg):
        dbg.print("eager {} {x}", jnp.arange(2), x=3.5)
        dbg.callback(lambda v: print("called with", v), jnp.float32(1))

    expected, ours = both(capfd, program)
    assert ours == expected


def test_eager_breakpoint_sees_concrete_locals():
    sessions = []
    undo = jax_registry.register("eager", lambda frames, tid, **kw: sessions.append(frames), -100)
    try:
        value = np.arange(3)
        jdw.breakpoint(backend="eager")
    finally:
        undo()
    ((frame, *_),) = sessions
    assert frame.function == "test_eager_breakpoint_sees_concrete_locals"
    assert frame.locals["value"] is value


def test_unbatched_predicate_with_batched_locals_enters_for_the_whole_batch():
    sessions = []
    undo = jax_registry.register("whole", lambda frames, tid, **kw: sessions.append(kw), -100)
    try:

        def f(x, flag):
            jdw.breakpoint_if(flag, backend="whole")
            return x

        jax.vmap(f, in_axes=(0, None))(jnp.arange(3.0), True)
        jax.vmap(f, in_axes=(0, None))(jnp.arange(3.0), False)
        jdw.effects_barrier()
    finally:
        undo()
    assert sessions == [{"batch_size": 3}]


def test_debugger_quit_has_a_clear_default_message():
    assert issubclass(DebuggerQuit, Exception)
    assert "debugger was quit" in str(DebuggerQuit())
    assert str(DebuggerQuit("stop here")) == "stop here"

"""The routed ``jax.debug.breakpoint`` calls backends not ours exactly as JAX does.

JAX's ``cli``, ``colab`` and a user's own backend get JAX's frames (no globals, locals JAX
cannot flatten shown as ``<cant_flatten>``), only the caller's keyword arguments, one call
per ``vmap`` element and ``SystemExit`` unchanged.
"""

from __future__ import annotations

import io
from functools import partial

import jax
import numpy as np
import pytest
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.breakpoints import jax_breakpoint

FOREIGN = "test-foreign"
OFFSET = 100.0


class Foreign:
    """A backend written for JAX: records each call and accepts any keyword."""

    def __init__(self):
        self.calls = []

    def __call__(self, frames, thread_id, **kwargs):
        self.calls.append((frames, thread_id, kwargs))


@pytest.fixture
def foreign():
    backend = Foreign()
    undo = jax_registry.register(FOREIGN, backend, -100)
    yield backend
    undo()


def _hit(breakpoint, x, **kwargs):
    y = x * 2
    breakpoint(**kwargs)
    return y


def _jax_and_ours(**kwargs):
    """Run one program under JAX's own breakpoint, then under ours, from the same lines."""
    assert jax.debug.breakpoint is not jax_breakpoint, "JAX's own breakpoint is needed"
    for breakpoint in (jax.debug.breakpoint, jax_breakpoint):
        jax.jit(partial(_hit, breakpoint, **kwargs))(jnp.float32(3.0)).block_until_ready()
        jdw.effects_barrier()


def test_foreign_backends_get_exactly_the_frames_jax_captures(foreign):
    _jax_and_ours(backend=FOREIGN)
    (theirs, _, _), (ours, _, _) = foreign.calls
    assert len(theirs) > 5, "pytest's own frames are on the stack, and JAX keeps them"
    assert [type(frame) for frame in ours] == [type(frame) for frame in theirs]
    for mine, jax_frame in zip(ours, theirs, strict=True):
        assert (mine.filename, mine.lineno, mine.offset) == (
            jax_frame.filename,
            jax_frame.lineno,
            jax_frame.offset,
        )
        assert (mine.code_context, mine.source) == (jax_frame.code_context, jax_frame.source)
        assert mine.globals == jax_frame.globals == {}
        assert mine.locals.keys() == jax_frame.locals.keys()
    np.testing.assert_array_equal(ours[0].locals["y"], theirs[0].locals["y"])


def test_foreign_backends_get_jaxs_frames_with_its_options(foreign):
    _jax_and_ours(backend=FOREIGN, filter_frames=False, num_frames=4)
    (theirs, _, _), (ours, _, _) = foreign.calls
    assert [(f.filename, f.lineno) for f in ours] == [(f.filename, f.lineno) for f in theirs]
    assert len(ours) == 4


def test_cli_where_reads_as_with_jax():
    assert jax.debug.breakpoint is not jax_breakpoint, "JAX's own breakpoint is needed"
    shown = []
    for breakpoint in (jax.debug.breakpoint, jax_breakpoint):
        shown.append(io.StringIO())
        program = partial(
            _hit, breakpoint, backend="cli", stdin=io.StringIO("w\nc\n"), stdout=shown[-1]
        )
        jax.jit(program)(jnp.float32(3.0)).block_until_ready()
        jdw.effects_barrier()
    theirs, ours = (stream.getvalue() for stream in shown)
    assert theirs.count("  File ") > 5
    assert ours == theirs


def test_pmap_hits_pass_only_the_callers_keywords(foreign):
    def per_device(x):
        jax_breakpoint(backend=FOREIGN, note="mine")
        return x

    jax.pmap(per_device)(jnp.arange(8.0))
    jdw.effects_barrier()
    assert len(foreign.calls) == 8
    assert all(kwargs == {"note": "mine"} for _, _, kwargs in foreign.calls)
    assert sorted(float(frames[0].locals["x"]) for frames, _, _ in foreign.calls) == list(range(8))


def test_vmap_hits_once_per_element_in_order_without_batch_keywords(foreign):
    def program(v):
        w = v + 1
        jax_breakpoint(backend=FOREIGN, ordered=True)
        return w

    jax.jit(jax.vmap(program))(jnp.arange(6.0).reshape(3, 2)).block_until_ready()
    jdw.effects_barrier()
    assert [kwargs for _, _, kwargs in foreign.calls] == [{}, {}, {}]
    assert [frames[0].locals["w"].tolist() for frames, _, _ in foreign.calls] == [
        [1.0, 2.0],
        [3.0, 4.0],
        [5.0, 6.0],
    ]


def test_system_exit_from_the_backend_is_not_turned_into_a_quit():
    def exiting(frames, thread_id, **kwargs):
        raise SystemExit(3)

    undo = jax_registry.register(FOREIGN, exiting, -100)
    try:
        with pytest.raises(SystemExit) as info:
            jax_breakpoint(backend=FOREIGN)
            jdw.effects_barrier()
    finally:
        undo()
    assert info.value.code == 3


def test_cli_at_end_of_input_exits_like_jax():
    def program(x):
        jax_breakpoint(backend="cli", stdin=io.StringIO(""), stdout=io.StringIO())
        return x

    with pytest.raises(SystemExit):
        program(1.0)
        jdw.effects_barrier()


def test_frames_carry_no_globals(foreign):
    @jax.jit
    def program(x):
        jax_breakpoint(backend=FOREIGN)
        return x + OFFSET

    program(1.0).block_until_ready()
    jdw.effects_barrier()
    ((frames, thread_id, _),) = foreign.calls
    assert thread_id is None
    assert frames[0].code_context == ["        jax_breakpoint(backend=FOREIGN)\n"]
    assert all(frame.globals == {} for frame in frames)


def test_cli_cannot_see_globals():
    stdout = io.StringIO()

    @jax.jit
    def program():
        jax_breakpoint(backend="cli", stdin=io.StringIO("p OFFSET\nc\n"), stdout=stdout)

    program()
    jdw.effects_barrier()
    assert "NameError: name 'OFFSET' is not defined" in stdout.getvalue()


def test_locals_that_cannot_be_flattened_read_cant_flatten(foreign):
    @jax.jit
    def program(x):
        mixed_keys = {1: x, "one": x}
        nested = {"inner": mixed_keys, "y": x}
        jax_breakpoint(backend=FOREIGN)
        del nested
        return x

    program(2.0).block_until_ready()
    jdw.effects_barrier()
    ((frames, _, _),) = foreign.calls
    shown = frames[0].locals
    assert repr(shown["mixed_keys"]) == "<cant_flatten>"
    assert repr(shown["nested"]) == "<cant_flatten>"
    np.testing.assert_allclose(shown["x"], 2.0)

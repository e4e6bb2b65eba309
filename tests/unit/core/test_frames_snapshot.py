"""Captured frames are snapshots of their locals on every Python, 3.13's live views included.

From Python 3.13 (PEP 667) a function frame's ``f_locals`` is a live view: a capture kept as
such sees every later binding, including the capture itself, and flattening it never ends.
"""

import sys

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core import _jax_internals as jx
from jaxdbg_widgets.core import frames


def _bounded(function, seconds: float = 10.0):
    """``function()``'s result; the test fails, rather than hangs, when it never returns."""
    result = []
    error = caps._run_bounded(lambda: result.append(function()), seconds)
    assert error is None, f"{type(error).__name__}: {error}"
    return result[0]


def test_jax_frames_hold_a_copy_of_locals_even_when_the_frame_comes_to_hold_them():
    if not jx.JAX_FRAMES:
        pytest.skip("this JAX has no debugger-frames")
    x = jnp.ones(2)
    captured = jx.jax_breakpoint_frames(sys._getframe(), filter_frames=False, num_frames=1)
    leaves, treedef = _bounded(lambda: jax.tree_util.tree_flatten(captured))
    assert "captured" not in captured[0].locals
    assert captured[0].locals["x"] is x
    rebuilt = jax.tree_util.tree_unflatten(treedef, leaves)
    assert set(rebuilt[0].locals) == set(captured[0].locals)


def test_jaxdbg_frames_hold_a_copy_of_locals():
    y = 2.0
    snapshot = frames.snapshot(sys._getframe())
    later = 3.0
    assert snapshot.locals["y"] == y
    assert "later" not in snapshot.locals and "snapshot" not in snapshot.locals
    del later


def test_a_breakpoint_inside_jit_captures_and_flattens_in_bounded_time():
    """JAX's own frames under a jitted breakpoint, with the capture bound in the same frame."""

    def trace():
        @jax.jit
        def f(x):
            held = frames.capture_as_jax(filter_frames=False, num_frames=2)
            if held is not None:
                jax.tree_util.tree_flatten(held.rebuild(list(held.operands)))
            return x + 1

        return f.lower(jnp.ones(3)).as_text()

    assert "func" in _bounded(trace)

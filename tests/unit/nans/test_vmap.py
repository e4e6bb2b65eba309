"""Under vmap the batch elements are read along each value's own batch axis, or not named."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.origin import batch_of
from jaxdbg_widgets.nans.report import Batch
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

needs_axes = pytest.mark.skipif(not internals.VMAP_BATCH_AXES, reason="no vmap-batch-axes")
EXAMPLES = jnp.ones((6, 3)).at[3, 1].set(-2.0)  # only example 3 is bad


def _batched():
    return jax.jit(jax.vmap(cases.batched_log_of_product, in_axes=(None, 0)))


@needs_axes
def test_a_batch_the_product_puts_last_is_read_along_that_axis_even_from_jax_caches():
    fun = _batched()
    for _ in range(2):  # the second trace comes from JAX's caches
        origin = find_nonfinite(fun, jnp.eye(3), EXAMPLES).origin
        assert origin.primitive == "log"
        assert origin.batch == Batch(1, (3,))
    assert "batch elements (vmap, axis 1): 3" in find_nonfinite(fun, jnp.eye(3), EXAMPLES).to_text()


@needs_axes
def test_a_value_vmap_did_not_batch_gets_no_guessed_elements():
    """``log(w)`` of the unbatched ``w`` is traced outside vmap's rules: nothing says where
    (or whether) its batch axis is, so no element is named (reading axis 0 would name w's
    own positions 0-3 as batch elements)."""
    fun = jax.vmap(cases.shared_log, in_axes=(None, 0))
    report = find_nonfinite(fun, jnp.full((4,), -1.0), jnp.ones(4))
    assert report.origin.primitive == "log" and report.origin.batch == Batch(None, None)
    assert "batch elements (vmap): not known" in report.to_text()


def test_an_axis_nobody_saw_is_not_known_and_not_guessed():
    bad = jnp.array([[1.0, jnp.nan], [1.0, 1.0]])
    assert batch_of("vmap()", [bad], [internals.UNKNOWN_AXIS]) == Batch(None, None)
    assert batch_of("vmap()", [bad], [1]) == Batch(1, (1,))
    assert batch_of("vmap()", [bad], [None]) == Batch(None, ())
    assert batch_of("jvp()", [bad], [0]) is None
    assert "all alike" in Batch(None, ()).describe()


@needs_axes
@pytest.mark.skipif(not recheck.available(), reason="no nan-recheck")
def test_nans_on_names_the_batch_element_along_its_axis():
    undo = nans.install(None)
    nans.set_checks(True)
    try:
        with pytest.raises(FloatingPointError) as raised:
            _batched()(jnp.eye(3), EXAMPLES)
    finally:
        undo()
    assert "batch elements 3)" in str(raised.value).splitlines()[0]

"""A shard_map body with collectives is stepped with its own types (``check_vma``, the default)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

ROWS = P(("a", "b"))


def _step(check_vma: bool):
    mesh = jax.make_mesh((2, 4), ("a", "b"))
    mapped = jax.shard_map(
        cases.data_parallel_step,
        mesh=mesh,
        in_specs=(P(), ROWS),
        out_specs=P(),
        check_vma=check_vma,
    )
    x = jax.device_put(jnp.arange(16.0).reshape(16, 1), NamedSharding(mesh, ROWS))
    return jax.jit(mapped), jnp.ones((1,)), x


@pytest.mark.parametrize("check_vma", [True, False], ids=["check_vma", "unchecked"])
def test_pmean_in_a_data_parallel_step_is_stepped_and_the_bad_shards_named(check_vma):
    if check_vma and not internals.SHARD_MAP_VMA:
        pytest.skip("this JAX has no shard-map-vma")
    report = find_nonfinite(*_step(check_vma))
    origin = report.origin
    assert origin is not None, report.to_text()
    assert origin.primitive == "sqrt" and "jnp.sqrt(jnp.sum(x) - 10.0)" in origin.source.text
    assert [s.coords for s in origin.shards] == [
        (("a", 0), ("b", 0)),
        (("a", 0), ("b", 1)),
        (("a", 0), ("b", 2)),
    ]


@pytest.mark.skipif(not recheck.available(), reason="no nan-recheck")
def test_nans_on_names_the_shards_of_a_checked_shard_map_with_pmean():
    undo = nans.install(None)
    nans.set_checks(True)
    try:
        step, w, x = _step(True)
        with pytest.raises(FloatingPointError) as raised:
            step(w, x)
    finally:
        undo()
    report = raised.value.report
    assert report is not None and report.equations_checked > 0  # the search's, not a re-run's
    assert report.origin.primitive == "sqrt" and len(report.origin.shards) == 3

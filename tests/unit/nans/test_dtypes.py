"""Every inexact JAX dtype is checked: bfloat16 and the float8 types (from ml_dtypes) as float32."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.summary import summarize
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

LOW_PRECISION = [jnp.bfloat16, jnp.float16, jnp.float8_e4m3fn, jnp.float8_e5m2]
"""float16 is NumPy's own; the others are ml_dtypes', which ``np.inexact`` does not cover."""


@pytest.fixture
def checks_on():
    undo = nans.install(None)
    nans.set_checks(True)
    yield
    undo()


@pytest.mark.parametrize("dtype", LOW_PRECISION, ids=lambda d: jnp.dtype(d).name)
def test_log_of_a_negative_low_precision_value_is_found(dtype):
    report = find_nonfinite(jnp.log, jnp.array([-1.0, 2.0], dtype))
    assert report.origin is not None and report.origin.primitive == "log"
    assert report.origin.outputs[0].nan == 1 and report.origin.outputs[0].first_nan == ((0,),)


@pytest.mark.parametrize("dtype", LOW_PRECISION, ids=lambda d: jnp.dtype(d).name)
def test_a_summary_counts_nan_and_infinities_in_low_precision(dtype):
    values = jnp.array([np.nan, 1.0, -np.inf, np.inf], dtype)
    summary = summarize("x", values)
    assert summary.nan >= 1 and not summary.finite
    has_infinity = bool(jnp.isinf(jnp.array(np.inf, dtype)))  # float8_e4m3fn stores inf as NaN
    expected = (1, 1, 1) if has_infinity else (3, 0, 0)
    assert (summary.nan, summary.posinf, summary.neginf) == expected
    assert summarize("x", jnp.array([1.0, 2.0], dtype)).finite


def test_a_bfloat16_scan_that_overflows_names_the_iteration_and_then_the_nan():
    xs = jnp.full((12, 2), 1e4, jnp.bfloat16)
    report = find_nonfinite(cases.bf16_training_loop, xs)
    origin = report.origin
    assert origin is not None, report.to_text()
    assert (origin.primitive, origin.path) == ("mul", ("scan iteration 9",))
    assert origin.outputs[0].describe() == "out0 bf16[2]: 2 +Inf at (0,), (1,)"
    assert "w = w * x" in origin.source.text
    nan = report.nan_origin
    assert (nan.primitive, nan.path) == ("sub", ("scan iteration 9",))


def test_bfloat16_shards_are_stepped_and_named():
    mesh = jax.make_mesh((8,), ("x",))
    spec = P("x")
    mapped = jax.jit(jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec))
    x = jax.device_put((jnp.arange(16.0) - 10.0).astype(jnp.bfloat16), NamedSharding(mesh, spec))
    origin = find_nonfinite(mapped, x).origin
    assert origin is not None and origin.primitive == "sqrt"
    assert [s.coords for s in origin.shards] == [(("x", i),) for i in range(5)]


@pytest.mark.skipif(not recheck.available(), reason="this JAX has no nan-recheck")
def test_nans_on_raises_a_bfloat16_nan_at_its_line(checks_on):
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(cases.bf16_training_loop)(jnp.full((12, 2), 1e4, jnp.bfloat16))
    report = raised.value.report
    assert report.origin.path == ("scan iteration 9",)
    assert "first made by mul at " in str(raised.value).splitlines()[0]


@pytest.mark.skipif(not internals.SHARD_MAP_NAN_CHECK, reason="no nan-check-shard-map")
def test_an_unjitted_bfloat16_shard_map_step_names_its_devices(checks_on):
    mesh = jax.make_mesh((8,), ("x",))
    spec = P("x")
    mapped = jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec)
    x = jax.device_put((jnp.arange(16.0) - 10.0).astype(jnp.bfloat16), NamedSharding(mesh, spec))
    with pytest.raises(FloatingPointError) as raised:
        mapped(x)
    assert [s.device_id for s in raised.value.report.origin.shards] == [0, 1, 2, 3, 4]

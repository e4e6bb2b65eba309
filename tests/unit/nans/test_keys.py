"""Typed (``jax.random.key``) and raw (``PRNGKey``) keys: never NaN, skipped and shown as keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.summary import summarize
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

KEYS = {"typed": lambda: jax.random.key(0), "raw": lambda: jax.random.PRNGKey(0)}


@pytest.mark.parametrize("kind", KEYS)
def test_a_program_taking_a_key_is_searched(kind):
    report = find_nonfinite(cases.noisy_log, KEYS[kind](), jnp.array([1.0, -1.0]))
    origin = report.origin
    assert origin is not None and origin.primitive == "log"
    assert "jnp.log(x + noise)" in origin.source.text
    assert origin.outputs[0].first_nan == ((1,),)


@pytest.mark.parametrize("kind", KEYS)
def test_a_key_carried_through_a_scan_is_split_each_step_and_the_iteration_named(kind):
    report = find_nonfinite(cases.keyed_steps, KEYS[kind](), jnp.arange(6.0))
    assert (report.origin.primitive, report.origin.path) == ("log", ("scan iteration 3",))
    assert report.nan_origin.path == ("scan iteration 4",)


def test_a_typed_key_is_summarized_as_keys():
    summary = summarize("key", jax.random.split(jax.random.key(0), 3))
    assert summary.finite and summary.key
    assert summary.describe() == "key key<fry>[3]: PRNG keys, never NaN"
    raw = summarize("key", jax.random.PRNGKey(0))
    assert raw.describe() == "key uint32[2]: finite" and not raw.key


def test_an_origin_reading_per_device_keys_shows_them_as_keys():
    mesh = jax.make_mesh((8,), ("x",))
    spec = P("x")
    mapped = jax.jit(
        jax.shard_map(cases.keyed_branches, mesh=mesh, in_specs=(spec, spec), out_specs=spec)
    )
    keys = jax.device_put(jax.random.split(jax.random.key(0), 8), NamedSharding(mesh, spec))
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, spec))
    report = find_nonfinite(mapped, keys, x)
    origin = report.origin
    assert origin.primitive == "cond"  # the devices took different branches
    assert [s.coords for s in origin.shards] == [(("x", 0),), (("x", 1),)]
    assert "in1 key<fry>[1]: PRNG keys, never NaN" in report.to_text()
    assert jax.random.key_data(origin.values["in1"]).shape == (1, 2)


@pytest.mark.skipif(not recheck.available(), reason="this JAX has no nan-recheck")
@pytest.mark.parametrize("kind", KEYS)
def test_nans_on_raises_at_the_line_of_a_jitted_function_taking_a_key(kind):
    undo = nans.install(None)
    nans.set_checks(True)
    try:
        with pytest.raises(FloatingPointError) as raised:
            jax.jit(cases.noisy_log)(KEYS[kind](), jnp.array([1.0, -1.0]))
    finally:
        undo()
    first = str(raised.value).splitlines()[0]
    assert "first made by log at " in first and "jnp.log(x + noise)" in first

"""Loops with traced bounds are opened, and a search that fails still gives JAX's own error."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

needs_recheck = pytest.mark.skipif(not recheck.available(), reason="no nan-recheck")


@pytest.fixture
def checks_on():
    undo = nans.install(None)
    nans.set_checks(True)
    yield
    undo()


@pytest.mark.parametrize("jitted", [False, True], ids=["plain", "jit"])
def test_a_fori_loop_with_a_traced_trip_count_is_opened(jitted):
    fun = jax.jit(cases.traced_trip_count) if jitted else cases.traced_trip_count
    report = find_nonfinite(fun, 0.0, 6)
    assert (report.origin.primitive, report.origin.path) == ("log", ("while iteration 3",))
    assert "jnp.log(3.0 - i)" in report.origin.source.text
    assert report.nan_origin.path == ("while iteration 4",)


@needs_recheck
def test_nans_on_raises_a_floating_point_error_at_a_traced_fori_loop_line(checks_on):
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(cases.traced_trip_count)(0.0, 6)
    assert raised.value.report.origin.path == ("while iteration 3",)


def _failing_search(monkeypatch, names=None):
    """The search fails inside (for the functions ``names``, else always) as a bug would."""
    search = recheck.search_call

    def failing(name, arguments, sink):
        if names is None or name in names:
            raise KeyError("Var(id=1)")
        return search(name, arguments, sink)

    monkeypatch.setattr(recheck, "search_call", failing)


@needs_recheck
def test_a_failed_search_raises_jax_error_with_one_line_saying_so(checks_on, monkeypatch):
    _failing_search(monkeypatch)
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(cases.scan_program)(jnp.arange(6.0))
    lines = str(raised.value).splitlines()
    assert lines[-1].startswith("(jaxdbg: the search for the origin failed with KeyError: ")
    assert "JAX's, after its de-optimized re-run" in lines[-1]
    assert "encountered in" in lines[0]  # JAX's own message leads
    assert not any("nothing was run again" in line for line in lines)
    assert type(raised.value) is FloatingPointError


@needs_recheck
def test_jits_reached_by_jax_rerun_get_jax_handling_not_the_search(checks_on, monkeypatch):
    """Only the outer call fails to be searched; the inner jit JAX's re-run calls is not
    searched either, so no report claims its line or that nothing ran again."""
    inner = jax.jit(lambda v: jnp.log(v))

    def outer(v):
        return inner(v) * 2.0

    _failing_search(monkeypatch, names={"outer"})
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(outer)(jnp.array([-1.0, 1.0]))
    assert getattr(raised.value, "report", None) is None
    assert "nothing was run again" not in str(raised.value)
    assert "the search for the origin failed with KeyError" in str(raised.value)


def test_an_origin_without_a_user_frame_says_its_line_is_not_known():
    origin = Origin("log", (), (), "forward", (), (), ())
    text = recheck.message(NonfiniteReport("f", 1, 1, origin), "nan").splitlines()[0]
    assert "no user line" not in text and "log at a line JAX kept no user frame for" in text


def test_a_transformed_search_that_fails_leaves_jax_handling(monkeypatch):
    def failing(*args, **kwargs):
        raise KeyError("Var(id=1)")

    monkeypatch.setattr(recheck, "search_program", failing)
    error = internals.nan_check_error("jit", "nan")
    program = jax.make_jaxpr(jnp.log)(-1.0)
    assert recheck.search_transformed(error, program, (jnp.float32(-1.0),), "log", "") is None


@pytest.mark.skipif(not internals.SHARD_MAP_NAN_CHECK, reason="no nan-check-shard-map")
def test_an_unjitted_shard_map_step_inside_jax_rerun_claims_nothing(checks_on, monkeypatch):
    """JAX's re-run after a failed search runs the step again: no report says it did not."""
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",))
    mapped = jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=P("x"), out_specs=P("x"))

    def outer(x):
        return mapped(x) * 2.0

    _failing_search(monkeypatch)
    x = jax.device_put(jnp.arange(16.0) - 10.0, NamedSharding(mesh, P("x")))
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(outer)(x)
    message = str(raised.value)
    first = message.splitlines()[0]
    assert "nothing was run again" not in message and "unjitted" not in first
    assert "in a shard_map step of JAX's de-optimized re-run of jit(outer)" in first
    assert first.endswith("JAX ran the call again to find it")
    assert message.splitlines()[-1].startswith("(jaxdbg: the search for the origin")

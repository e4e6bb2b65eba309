"""With the search in place of JAX's re-run, a jitted call's NaN is raised at its origin, once."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.debugger.serve import post_mortem
from jaxdbg_widgets.nans import recheck
from jaxdbg_widgets.notebook import nans
from tests.unit.nans import cases

pytestmark = pytest.mark.skipif(not recheck.available(), reason="this JAX has no nan-recheck")

TRANSPOSE_TRACE = internals._transpose_trace()[0] if internals.TRANSPOSED_RULE_LINES else ""
JAX_TRANSPOSE_TRACE = getattr(internals._pjit, TRANSPOSE_TRACE, None)
"""JAX's own trace of a jit's backward program, as it is before anything is installed."""


@pytest.fixture(autouse=True)
def checks_on():
    undo = nans.install(None)
    nans.set_checks(True)
    yield
    undo()


def _origin(fun, *args):
    with pytest.raises(FloatingPointError) as raised:
        fun(*args)
    return raised.value


def test_a_scan_nan_is_raised_at_the_body_line_and_iteration():
    error = _origin(jax.jit(cases.scan_program), jnp.arange(6.0))
    origin = error.report.origin
    assert (origin.primitive, origin.path) == ("log", ("scan iteration 3",))
    first = str(error).splitlines()[0]
    assert first.startswith("invalid value (nan) in the output of jit(scan_program): first made")
    assert "y = jnp.log(carry - x)" in first and "(forward; scan iteration 3)" in first
    assert "; first NaN made by log at " in first and "(forward; scan iteration 4)" in first
    assert type(error) is FloatingPointError and error.debugger_frames()[0].function == "scan_body"


def test_jit_of_grad_names_the_backward_nan_and_its_forward_line():
    error = _origin(jax.jit(jax.grad(cases.sqrt_loss)), jnp.array([1.0, 0.0]))
    nan = error.report.nan_origin
    assert (nan.primitive, nan.direction) == ("mul", "backward")
    assert "jnp.sqrt(w)" in nan.forward_line.text
    assert "first NaN made by mul at " in str(error) and "(backward)" in str(error)


def test_a_vmapped_call_names_its_bad_elements():
    error = _origin(jax.jit(jax.vmap(lambda v: jnp.log(v) * 2.0)), jnp.array([1.0, -1.0, -2.0]))
    assert error.report.origin.batch_elements == (1, 2)
    assert "batch elements 1, 2" in str(error).splitlines()[0]


def test_shard_map_names_the_five_bad_shards():
    mesh = jax.make_mesh((8,), ("x",))
    spec = P("x")
    mapped = jax.jit(jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec))
    x = jax.device_put(jnp.arange(16.0) - 10.0, NamedSharding(mesh, spec))
    origin = _origin(mapped, x).report.origin
    assert origin.source.function == "sharded_sqrt"
    assert [s.coords for s in origin.shards] == [(("x", i),) for i in range(5)]


def test_cond_while_and_custom_vjp_each_name_their_line():
    cond = _origin(jax.jit(cases.cond_program), 1.0).report.origin
    assert cond.path == ("cond true branch",) and "jnp.log(-v)" in cond.source.text
    loop = _origin(jax.jit(cases.while_program), 0.0).report.origin
    assert loop.path == ("while iteration 3",)
    assert loop.source.function == "while_program.<locals>.body"
    rule = _origin(jax.jit(jax.grad(cases.custom_vjp_loss)), -1.0).report.origin
    assert (rule.primitive, rule.direction) == ("log", "backward")
    if internals.RULE_TRACEBACKS:
        assert "jnp.log(residual)" in rule.source.text


def test_prints_and_callbacks_inside_run_once_and_the_error_says_they_were_skipped(capsys):
    calls = []

    @jax.jit
    def step(xs):
        jax.debug.print("xs = {}", xs)
        jax.debug.callback(lambda v: calls.append(v), xs)
        return cases.scan_program(xs)

    error = _origin(step, jnp.arange(6.0))
    jax.effects_barrier()
    assert len(calls) == 1
    assert capsys.readouterr().out.count("xs = ") == 1
    assert "2 debug print/callback call(s) skipped, not run again" in str(error).splitlines()[0]
    assert len(error.report.skipped_callbacks) == 2


def test_a_finite_call_raises_nothing_and_a_caught_error_is_a_floating_point_error():
    assert float(jax.jit(jnp.sin)(1.0)) == pytest.approx(0.841471, rel=1e-5)
    with pytest.raises(FloatingPointError) as raised:
        jax.jit(jnp.log)(-1.0)
    assert raised.value.report.origin.primitive == "log"


def test_a_deleted_argument_gets_an_error_saying_the_search_needs_it():
    x = jnp.array([-1.0, 2.0])
    x.delete()
    error = internals.nan_check_error("log", "nan")
    with pytest.raises(
        FloatingPointError, match="search for its origin needs the call's"
    ) as raised:
        recheck.search_instead(error, jnp.log, (x,), {})
    assert "argument arg0 was deleted or donated" in str(raised.value)
    assert raised.value.report is None and raised.value.debugger_frames() == []


def test_a_nan_the_search_cannot_find_keeps_jax_message():
    error = internals.nan_check_error("jit", "nan")
    with pytest.raises(FloatingPointError, match="de-optimized function did not") as raised:
        recheck.search_instead(error, jnp.sin, (jnp.float32(1.0),), {})
    assert not hasattr(raised.value, "report")


def test_the_post_mortem_opens_at_the_origin_with_its_inputs_as_locals():
    error = _origin(jax.jit(cases.scan_program), jnp.arange(6.0))
    served = []
    opened = post_mortem.debug(error, None, lambda frames, _: served.append(frames), lambda: True)
    assert opened
    top = served[0][0]
    assert top.function == "scan_body" and "y = jnp.log(carry - x)" in top.code_context[0]
    assert {"in0", "out0"} <= set(top.locals)
    shown = _origin(jax.jit(lambda v: jnp.log(v) * 2), jnp.array([-1.0, 1.0]))
    assert float(shown.debugger_frames()[0].locals["v"][1]) == 1.0  # the parameter's own name
    assert float(top.locals["out0"]) == float("-inf")


def test_off_and_the_undo_put_jax_rerun_back():
    assert recheck.installed()
    nans.set_checks(False)
    assert internals.nan_recheck_installed() is internals.JAX_NAN_RECHECK
    assert (jax.config.jax_debug_nans, jax.config.jax_debug_infs) == (False, False)


transformed = pytest.mark.skipif(
    not recheck.transformed_available(), reason="this JAX has no nan-recheck-transformed"
)


@transformed
def test_grad_of_jit_names_a_backward_nan_made_from_finite_values_and_its_forward_line():
    error = _origin(jax.grad(jax.jit(cases.custom_vjp_loss)), -1.0)
    origin = error.report.origin
    assert (origin.primitive, origin.direction) == ("log", "backward")
    assert "return clipped(x)" in origin.forward_line.text
    first = str(error).splitlines()[0]
    assert first.startswith("invalid value (nan) in the output of the backward pass of jit(")
    if internals.TRANSPOSED_RULE_LINES:
        assert origin.rule == "custom_vjp backward rule clipped_bwd"
        functions = [f.function for f in error.debugger_frames()]
        assert functions[:2] == ["clipped_bwd", "custom_vjp_loss"]
        assert "in clipped_bwd: return (cotangent * jnp.log(residual),)" in first
    else:
        assert "return clipped(x) (backward); nothing was run again" in first


@pytest.mark.skipif(
    not internals.TRANSPOSED_RULE_LINES, reason="this JAX has no transposed-rule-lines"
)
def test_grad_of_jit_of_a_nested_jit_names_the_rule_and_later_calls_are_unchanged():
    """The second trace also sees the nested jit's backward rule, then gradients are as before."""
    nested = jax.jit(lambda x: jax.jit(cases.custom_vjp_loss)(x) * 3.0)
    error = _origin(jax.grad(nested), -1.0)
    assert error.report.origin.rule == "custom_vjp backward rule clipped_bwd"
    assert float(jax.grad(nested)(2.0)) == pytest.approx(3.0 * float(jnp.log(2.0)))
    assert getattr(internals._pjit, TRANSPOSE_TRACE) is not JAX_TRANSPOSE_TRACE
    nans.set_checks(False)
    assert getattr(internals._pjit, TRANSPOSE_TRACE) is JAX_TRANSPOSE_TRACE


@transformed
def test_grad_of_jit_raises_a_forward_nan_at_its_line_and_prints_inside_run_once(capsys):
    def loss(w):
        jax.debug.print("w = {}", w)
        return jnp.sum(jnp.log(w))

    error = _origin(jax.grad(jax.jit(loss)), jnp.array([1.0, -1.0]))
    jax.effects_barrier()
    assert capsys.readouterr().out.count("w = ") == 1
    origin = error.report.origin
    assert (origin.primitive, origin.direction) == ("log", "forward")
    first = str(error).splitlines()[0]
    assert "the forward pass of jit(loss) under differentiation: first made by log" in first
    assert "1 debug print/callback call(s) skipped, not run again" in first


@transformed
def test_grad_of_jit_of_sqrt_at_zero_stops_at_the_infinite_derivative_in_the_forward_pass():
    # JAX may run a forward program it ran before with infinity checks off without checking it
    # again (it does so with or without us), so this test starts from empty caches.
    jax.clear_caches()
    error = _origin(jax.grad(jax.jit(cases.sqrt_loss)), jnp.array([1.0, 0.0]))
    report = error.report
    assert (report.origin.primitive, report.origin.direction) == ("div", "forward")
    assert "computed for the derivative (jvp) of this line" in report.origin.notes
    assert report.nan_origin is None  # the NaN would come only in the backward pass
    first = str(error).splitlines()[0]
    assert first.startswith("invalid value (inf) in the output of the forward pass of jit(")
    assert "jnp.sqrt(w)" in first and "(forward)" in first


@transformed
def test_with_only_nan_checks_a_backward_pass_given_an_infinity_says_so():
    jax.config.update("jax_debug_infs", False)
    error = _origin(jax.grad(jax.jit(cases.sqrt_loss)), jnp.array([1.0, 0.0]))
    assert error.report.origin is None and not error.report.nonfinite_arguments[0].finite
    first = str(error).splitlines()[0]
    assert "backward pass of jit(sqrt_loss): an argument is already non-finite" in first


@transformed
def test_vmap_of_jit_names_the_bad_batch_elements():
    error = _origin(jax.vmap(jax.jit(lambda v: jnp.log(v) * 2.0)), jnp.array([1.0, -1.0, -2.0]))
    assert error.report.origin.batch_elements == (1, 2)
    first = str(error).splitlines()[0]
    assert "under vmap: first made by log" in first and "(forward; batch elements 1, 2)" in first


@transformed
def test_a_transformed_program_the_search_finds_finite_is_left_to_jax():
    error = internals.nan_check_error("jit", "nan")
    program = jax.make_jaxpr(jnp.sin)(1.0)
    assert recheck.search_transformed(error, program, (jnp.float32(1.0),), "sin", "vmap()") is None


def test_off_puts_the_transformed_jit_check_back_too():
    assert recheck.installed()
    nans.set_checks(False)
    assert internals.transformed_nan_check_installed() is None


shard_map_check = pytest.mark.skipif(
    not internals.SHARD_MAP_NAN_CHECK, reason="this JAX has no nan-check-shard-map"
)


@shard_map_check
def test_an_unjitted_shard_map_names_its_primitive_line_devices_and_first_elements():
    mesh = jax.make_mesh((8,), ("x",))
    spec = P("x")
    mapped = jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec)
    x = jax.device_put(jnp.arange(16.0) - 10.0, NamedSharding(mesh, spec))
    error = _origin(mapped, x)
    first = str(error).splitlines()[0]
    assert first.startswith("invalid value (nan) in an unjitted shard_map step: first made by ")
    assert "sqrt at " in first and "in sharded_sqrt: return jnp.sqrt(x * 2.0)" in first
    assert "(forward; device 0 (x=0), device 1 (x=1), device 2 (x=2), device 3 (x=3))" in first
    assert first.endswith("on 5 of 8 devices; nothing was run again")
    origin = error.report.origin
    assert [s.device_id for s in origin.shards] == [0, 1, 2, 3, 4]
    assert origin.inputs[0].describe().startswith("in0 f32[2]")
    assert origin.outputs[0].describe() == "out0 f32[2]: 2 NaN at (0,), (1,)"
    np.testing.assert_array_equal(origin.values["in0"], [-20.0, -18.0])
    assert [f.function for f in origin.frames][:2] == ["sharded_sqrt", "_origin"]
    assert np.asarray(mapped(x + 10.0))[0] == 0.0  # a finite step is untouched


@shard_map_check
def test_off_puts_jax_shard_map_check_back():
    assert internals.shard_map_nan_check_installed() is recheck.answer_shard_map
    nans.set_checks(False)
    assert internals.shard_map_nan_check_installed() is None


@shard_map_check
def test_an_unjitted_shard_map_on_a_2d_mesh_names_mesh_coordinates_and_local_elements():
    mesh = jax.make_mesh((2, 4), ("a", "b"))
    spec = P("a", "b")
    mapped = jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec)
    x = jax.device_put(jnp.arange(48.0).reshape(4, 12) - 10.0, NamedSharding(mesh, spec))
    origin = _origin(mapped, x).report.origin
    assert [s.coords for s in origin.shards] == [(("a", 0), ("b", b)) for b in range(4)]
    assert origin.shard_count == 8
    assert origin.outputs[0].describe() == "out0 f32[2, 3]: 3 NaN at (0, 0), (0, 1), (0, 2)"

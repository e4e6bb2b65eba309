"""find_nonfinite names the line, iteration, shard, element and pass of the first NaN or Inf."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite, search
from tests.unit.nans import cases


def _line(origin) -> str:
    return origin.source.text.strip()


def test_log_in_a_scan_body_names_iteration_3_and_the_body_line():
    report = find_nonfinite(cases.scan_program, jnp.arange(6.0))
    origin = report.origin
    assert origin.primitive == "log"
    assert origin.path == ("scan iteration 3",)
    assert origin.source.function == "scan_body"
    assert _line(origin).startswith("y = jnp.log(carry - x)")
    assert origin.direction == "forward"
    assert origin.outputs[0].neginf == 1 and origin.inputs[0].finite
    assert report.nan_origin.path == ("scan iteration 4",)  # log(-1): the first NaN
    assert "scan iteration 3" in report.to_text()


def test_grad_nan_is_found_in_the_backward_pass_of_the_sqrt_line():
    report = find_nonfinite(jax.grad(cases.sqrt_loss), jnp.array([1.0, 0.0]))
    first, nan = report.origin, report.nan_origin
    assert first.primitive == "div" and first.outputs[0].first_posinf == ((1,),)
    assert first.direction == "forward" and "jvp" in " ".join(first.notes)
    assert nan.primitive == "mul" and nan.direction == "backward"
    assert nan.forward_line is not None and "jnp.sqrt(w)" in nan.forward_line.text
    assert nan.outputs[0].nan == 1 and nan.outputs[0].first_nan == ((1,),)
    assert "backward (differentiates line" in report.to_text()


@pytest.mark.parametrize(
    ("shape", "axes", "coords"),
    [
        ((8,), ("x",), [(("x", i),) for i in range(5)]),
        ((2, 4), ("a", "b"), [(("a", i // 4), ("b", i % 4)) for i in range(5)]),
    ],
)
def test_sqrt_in_shard_map_names_the_five_bad_shards(shape, axes, coords):
    mesh = jax.make_mesh(shape, axes)
    spec = P(axes)
    mapped = jax.jit(jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=spec, out_specs=spec))
    x = jax.device_put(jnp.arange(16.0) - 10.0, NamedSharding(mesh, spec))
    origin = find_nonfinite(mapped, x).origin
    assert origin.primitive == "sqrt"
    assert origin.source.function == "sharded_sqrt"
    assert origin.shard_count == 8
    assert [s.coords for s in origin.shards] == coords
    devices = list(mesh.devices.flat)
    assert [s.device_id for s in origin.shards] == [devices[i].id for i in range(5)]
    assert "5 of 8 went non-finite" in find_nonfinite(mapped, x).to_text()


def test_vmap_names_the_bad_batch_elements():
    def per_example(v):
        return jnp.log(v) * 2.0

    batch = jnp.array([1.0, -1.0, 2.0, -3.0])
    origin = find_nonfinite(jax.vmap(per_example), batch).origin
    assert origin.primitive == "log"
    assert origin.batch_elements == (1, 3)
    assert origin.source.function.endswith("per_example")


def test_cond_names_the_branch_taken():
    origin = find_nonfinite(cases.cond_program, 1.0).origin
    assert origin.primitive == "log"
    assert origin.path == ("cond true branch",)
    assert "jnp.log(-v)" in origin.source.text


def test_custom_vjp_backward_rule_is_named_with_its_own_line():
    origin = find_nonfinite(jax.grad(cases.custom_vjp_loss), -1.0).origin
    assert origin.primitive == "log"
    assert origin.direction == "backward"
    if internals.RULE_TRACEBACKS:
        assert origin.rule == "custom_vjp backward rule clipped_bwd"
        assert "jnp.log(residual)" in origin.source.text
    else:  # a JAX whose transposition cannot keep the rule's own lines: the call is named
        assert origin.rule is None and origin.source == origin.forward_line
    assert origin.forward_line.text.strip() == "return clipped(x)"
    assert origin.inputs[0].dtype == "f32"


@pytest.mark.parametrize("wrap", [lambda f: f, jax.jit], ids=["grad", "jit-grad"])
def test_a_plain_backward_equation_names_no_rule(wrap):
    nan = find_nonfinite(wrap(jax.grad(cases.sqrt_loss)), jnp.array([1.0, 0.0])).nan_origin
    assert nan.rule is None and nan.source.function == "sqrt_loss"
    assert nan.frames == (nan.forward_line,) or nan.frames[0] == nan.forward_line


def test_while_loop_names_iteration_3():
    origin = find_nonfinite(cases.while_program, 0.0).origin
    assert origin.primitive == "log"
    assert origin.path == ("while iteration 3",)
    assert origin.source.function == "while_program.<locals>.body"


def test_nested_jit_scan_and_cond_paths_compose():
    def step(carry, x):
        value = jax.lax.cond(x > 2, lambda v: jnp.sqrt(v - 10.0), lambda v: v, x)
        return carry, value

    program = jax.jit(lambda xs: jax.lax.scan(step, 0.0, xs)[1])
    origin = find_nonfinite(program, jnp.arange(5.0)).origin
    assert origin.primitive == "sqrt"
    assert origin.path == ("scan iteration 3", "cond true branch")


def test_all_finite_says_so_with_the_number_of_equations():
    report = find_nonfinite(jax.jit(lambda x: jnp.sin(x) * 2.0 + 1.0), jnp.ones(4))
    assert not report.found and report.origin is None
    assert report.equations_checked == report.equations_total >= 3
    assert f"all finite: {report.equations_checked} equations checked" in report.to_text()


def test_a_nonfinite_argument_is_reported_as_such():
    report = find_nonfinite(jnp.sin, jnp.array([1.0, np.nan]))
    assert report.found and report.origin is None
    assert report.nonfinite_arguments[0].first_nan == ((1,),)


def test_stretches_are_stepped_into_only_where_a_value_goes_bad(monkeypatch):
    monkeypatch.setattr(search, "STRETCH", 4)

    def program(x):
        for _ in range(6):
            x = jnp.sin(x) + 0.5
        x = jnp.log(x - 10.0)
        return jnp.cos(x) * 3.0

    report = find_nonfinite(jax.jit(program), jnp.ones(3))
    assert report.origin.primitive == "log"
    assert report.equations_checked == 15  # the jit call, 12 of sin/add, the sub, the log


def test_prints_and_callbacks_inside_are_skipped_not_run(capsys):
    def body(carry, x):
        jax.debug.print("jax {}", x)
        jdw.print("ours {}", x)
        return carry, jnp.log(carry - x)

    report = find_nonfinite(lambda xs: jax.lax.scan(body, 3.0, xs)[1], jnp.arange(6.0))
    jax.effects_barrier()
    assert capsys.readouterr().out == ""
    assert report.origin.path == ("scan iteration 3",)
    assert len(report.skipped_callbacks) == 2
    assert "2 debug print/callback call(s) skipped" in report.to_text()


def test_values_are_freed_once_nothing_later_reads_them():
    closed = jax.make_jaxpr(lambda x: jnp.cos(jnp.sin(x) + 1.0))(jnp.ones(2))
    level = search.Level(closed.jaxpr, closed.consts, None)
    env = level.environment([jnp.ones(2)])
    first = closed.jaxpr.eqns[0]
    env[first.outvars[0]] = level.step(0, env)[0]
    level.forget(env, 1)
    assert list(env) == [first.outvars[0]]


def test_jax_debug_nans_still_works_after_a_search():
    find_nonfinite(jnp.log, -1.0)
    jax.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError):
            jax.jit(jnp.log)(-1.0).block_until_ready()
    finally:
        jax.config.update("jax_debug_nans", False)


# --- bad input ------------------------------------------------------------------------------


def test_a_non_callable_is_refused():
    with pytest.raises(TypeError, match="needs a callable, got int"):
        find_nonfinite(3, jnp.ones(2))


def test_a_leaf_that_is_not_an_array_is_passed_as_it_is():
    report = find_nonfinite(lambda x, name: getattr(jnp, name)(x), jnp.array([-1.0]), "log")
    assert report.origin.primitive == "log"
    assert [s.name for s in report.origin.inputs] == ["x"]


def test_values_a_call_writes_into_its_arguments_are_searched():
    def step(state, x):
        state["w"] = jnp.log(state["w"] - x)  # written in place, never returned
        return x.sum()

    report = find_nonfinite(step, {"w": jnp.ones(2)}, jnp.full(2, 3.0))
    assert report.found and report.origin.primitive == "log"


def test_a_static_argument_of_a_jitted_function_gets_the_bind_it_message():
    def scaled_log(x, n):
        return jnp.log(x) * n

    x = jnp.array([-1.0])
    expected = r"argument arg1 is static in jit\(scaled_log\).*functools.partial"
    with pytest.raises(TypeError, match=expected):
        find_nonfinite(jax.jit(scaled_log, static_argnums=1), x, 2)
    with pytest.raises(TypeError, match=r"argument n is static in jit\(scaled_log\)"):
        find_nonfinite(jax.jit(scaled_log, static_argnames="n"), x, n=2)
    bound = jax.jit(functools.partial(scaled_log, n=2))
    assert find_nonfinite(bound, x).origin.primitive == "log"


def test_a_donated_argument_is_refused():
    x = jnp.ones(3)
    jax.jit(lambda v: v * 2, donate_argnums=0)(x)
    assert x.is_deleted()
    with pytest.raises(ValueError, match="argument arg0 was deleted or donated before the search"):
        find_nonfinite(jnp.sin, x)


def test_a_deleted_buffer_inside_a_pytree_is_named():
    params = {"w": jnp.ones(2)}
    params["w"].delete()
    with pytest.raises(ValueError, match=r"argument arg0\['w'\] was deleted"):
        find_nonfinite(lambda p: p["w"] * 2, params)


def test_a_function_with_no_equations_is_refused():
    with pytest.raises(ValueError, match="traces to no equations"):
        find_nonfinite(lambda x: x, jnp.ones(2))


def test_parameters_left_unset_are_not_shown():
    origin = find_nonfinite(lambda x: jnp.log(x) ** 2, -1.0).origin
    assert origin.equation_text() == "log"
    squared = find_nonfinite(lambda x: x**2, 1e20).origin
    assert squared.equation_text() == "integer_pow[y=2]"

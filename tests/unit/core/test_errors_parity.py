"""Misuse raises what ``jax.debug`` raises; callback exceptions reach the user by name."""

from __future__ import annotations

import logging

import jax
import pytest
from jax import numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core.errors import original_exception
from jaxdbg_widgets.core.printing import jax_debug_print
from tests.unit.core.parity import JAX_DEBUG, JAXDBG, needs_jax


def _raised(call):
    with pytest.raises(Exception) as info:
        call()
    return info.value


@pytest.mark.parametrize("dbg", [JAX_DEBUG, JAXDBG], ids=lambda d: d.name)
def test_f_string_passed_as_format_is_rejected_with_the_hint(dbg):
    x = 3
    error = _raised(lambda: jax.jit(lambda v: dbg.print(f"{x}", x=v))(1))
    assert type(error) is ValueError
    assert "Unused keyword arguments" in str(error)
    assert "f-string" in str(error)


def test_unused_positional_argument_error_matches():
    expected = _raised(lambda: JAX_DEBUG.print("{}", 1, 2))
    ours = _raised(lambda: JAXDBG.print("{}", 1, 2))
    assert type(ours) is type(expected)
    assert str(ours) == str(expected).replace("jax.debug.print", "jaxdbg_widgets.print")


@pytest.mark.parametrize("kwargs", [{}, {"skip_format_check": True}], ids=["checked", "unchecked"])
def test_a_format_that_is_not_a_string_raises_what_jax_raises(kwargs):
    expected = _raised(lambda: JAX_DEBUG.print(123, 4, **kwargs))
    ours = _raised(lambda: jax_debug_print(123, 4, **kwargs))
    assert type(ours) is type(expected)  # JAX 0.12.1 asserts, older JAX a TypeError
    assert isinstance(ours, (TypeError, AssertionError))
    assert str(ours) == str(expected)


def test_jaxdbg_print_names_itself_when_the_format_is_not_a_string():
    error = _raised(lambda: JAXDBG.print(123, 4))
    assert type(error) is TypeError
    assert str(error) == "`jaxdbg_widgets.print` needs a format string, but got int"


@pytest.mark.parametrize("name", ["print", "callback"])
def test_misuse_of_the_two_call_form(name):
    expected = _raised(lambda: getattr(JAX_DEBUG, name)(ordered=True, x=1))
    ours = _raised(lambda: getattr(JAXDBG, name)(ordered=True, x=1))
    assert type(ours) is type(expected) is TypeError
    assert "two-call form" in str(ours)


def test_two_call_form_works():
    jdw.print(ordered=True)("two-call {x}", x=1)
    jdw.callback(ordered=True)(lambda v: None, 1)


def test_ordered_together_with_token():
    expected = _raised(lambda: JAX_DEBUG.breakpoint(ordered=True, token=jnp.zeros(())))
    ours = _raised(lambda: JAXDBG.breakpoint(ordered=True, token=jnp.zeros(())))
    assert type(ours) is type(expected)
    assert str(ours) == str(expected)


def test_non_callable_callback():
    expected = _raised(lambda: JAX_DEBUG.callback(42, 1))
    ours = _raised(lambda: JAXDBG.callback(42, 1))
    assert type(ours) is type(expected) is TypeError
    assert str(ours) == str(expected).replace("jax.debug.callback", "jaxdbg_widgets.callback")


def test_unknown_vmap_method():
    error = _raised(lambda: jdw.print("{}", 1, vmap_method="broadcast_all"))
    assert type(error) is ValueError
    assert "sequential" in str(error) and "expand_dims" in str(error)


class FaultyCallback(Exception):
    pass


def _fail(value):
    raise FaultyCallback(f"bad value {value}")


def test_callback_exception_reaches_the_user_on_the_main_thread(capfd):
    f = jax.jit(lambda x: JAXDBG.callback(_fail, x))
    with pytest.raises(Exception) as info:
        f(1)
        jdw.effects_barrier()
    assert "FaultyCallback: bad value 1" in str(info.value)
    original = (
        info.value if isinstance(info.value, FaultyCallback) else original_exception(info.value)
    )
    assert isinstance(original, FaultyCallback)
    assert str(original) == "bad value 1"
    jdw.effects_barrier()
    jax.jit(lambda x: jdw.print("still usable {}", x))(2)
    jdw.effects_barrier()
    assert "still usable 2" in capfd.readouterr().out


def test_callback_exception_on_a_worker_thread_is_raised_with_its_own_type(capfd):
    mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))
    jax.jit(lambda v: JAXDBG.callback(_fail, v.sum()))(x)
    with pytest.raises(FaultyCallback, match=r"bad value 28\.0") as info:
        jdw.effects_barrier()
    assert "CpuCallback" in str(info.value.__cause__)
    jdw.effects_barrier()
    jax.effects_barrier()
    jax.jit(lambda v: jdw.print("still usable {}", v.sum()))(x)
    jdw.effects_barrier()
    assert "still usable 28.0" in capfd.readouterr().out


def test_jax_effects_barrier_stays_failed_after_a_worker_thread_error():
    """Why our barrier clears failed tokens: JAX's re-raises the same failure forever."""
    mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))
    jax.jit(lambda v: JAX_DEBUG.callback(_fail, v.sum()))(x)
    with pytest.raises(Exception, match="FaultyCallback"):
        jax.effects_barrier()
    try:
        jax.effects_barrier()
    except Exception as again:
        assert "FaultyCallback" in str(again)
    else:
        pytest.skip("this JAX clears a failed runtime token itself")
    with pytest.raises(Exception, match="FaultyCallback"):
        jdw.effects_barrier()
    jax.effects_barrier()


@needs_jax("log", hasattr(jax.debug, "log"))
def test_log_emits_info_record_at_the_user_call_site(caplog):
    def program(dbg):
        caplog.clear()
        jax.jit(lambda x: dbg.log("logged {}", x))(7)
        dbg.effects_barrier()
        return [r for r in caplog.records if "logged" in r.getMessage()]

    with caplog.at_level(logging.INFO):
        (expected,) = program(JAX_DEBUG)
        (ours,) = program(JAXDBG)
    assert ours.name == "jaxdbg_widgets"
    assert ours.levelno == expected.levelno == logging.INFO
    assert ours.getMessage() == expected.getMessage() == "logged 7"
    assert (ours.pathname, ours.lineno) == (expected.pathname, expected.lineno)
    assert ours.pathname == __file__

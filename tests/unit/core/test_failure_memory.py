"""A failed host call is found again by identity, and nothing keeps its frames or arrays alive."""

from __future__ import annotations

import gc
import weakref

import jax
import pytest
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import (
    DebuggerQuit,
    detached,
    original_exception,
    raise_findable,
)


class Tagged(Exception):
    """An exception whose text says nothing about where it came from."""

    def __init__(self, tag: str) -> None:
        super().__init__("same text")
        self.tag = tag


def _raiser(tag):
    def fail(_value):
        raise Tagged(tag)

    return fail


def _failure(call):
    with pytest.raises(Exception) as info:
        call()
        jdw.effects_barrier()
    return info.value


def test_each_failure_is_found_by_identity_not_by_its_text():
    first = jax.jit(lambda v: jdw.callback(_raiser("first"), v))
    second = jax.jit(lambda v: jdw.callback(_raiser("second"), v))
    error_first = _failure(lambda: first(1.0))
    error_second = _failure(lambda: second(1.0))
    assert str(error_first).splitlines()[-1] == str(error_second).splitlines()[-1]
    assert original_exception(error_first).tag == "first"
    assert original_exception(error_second).tag == "second"


def test_a_failure_in_jax_own_callback_is_not_taken_for_ours():
    jax.jit(lambda v: jdw.callback(_raiser("ours"), v))
    error = _failure(lambda: jax.jit(lambda v: jax.debug.callback(_raiser("jax"), v))(1.0))
    jax.effects_barrier()
    assert original_exception(error) is None


def test_the_recovered_exception_holds_no_traceback_or_context():
    error = _failure(lambda: jax.jit(lambda v: jdw.callback(_raiser("x"), v))(1.0))
    original = original_exception(error)
    assert type(original) is Tagged and str(original) == "same text" and original.tag == "x"
    assert original.__traceback__ is None and original.__context__ is None


def test_detached_copies_exceptions_with_their_own_constructor_arguments():
    copy = detached(Tagged("t"))
    assert (type(copy), copy.args, copy.tag) == (Tagged, ("same text",), "t")


@pytest.mark.parametrize(
    "error",
    [OSError(2, "no such file", "data.npy"), UnicodeDecodeError("utf-8", b"x", 0, 1, "bad")],
    ids=["oserror", "unicode"],
)
def test_detached_keeps_the_line_of_exceptions_with_fields_of_their_own(error):
    try:
        raise error
    except Exception as raised:
        copy = detached(raised)
    assert (type(copy), str(copy)) == (type(error), str(error))
    assert copy.__traceback__ is None


def _quit(frames, thread_id, **kwargs):
    raise DebuggerQuit()


def _interrupt(frames, thread_id, **kwargs):
    raise KeyboardInterrupt()


def _stopped_type(run) -> type:
    """Run ``run()``; the type of what stopped it (every reference to the error dropped here)."""
    try:
        run()
        jdw.effects_barrier()
    except BaseException as error:
        return type(error)
    raise AssertionError("the session did not stop the computation")


@pytest.mark.parametrize("stop", [_quit, _interrupt], ids=["quit", "interrupt"])
@pytest.mark.parametrize("compiled", [True, False], ids=["jit", "eager"])
def test_a_stopped_session_keeps_no_captured_array_alive(stop, compiled):
    refs = []

    def backend(frames, thread_id, **kwargs):
        refs.append(weakref.ref(frames[0].locals["y"]))
        stop(frames, thread_id, **kwargs)

    def f(x):
        y = x * 2
        jdw.breakpoint(backend="stopper", num_frames=1)
        return y

    undo = jax_registry.register("stopper", backend, -100)
    try:
        stopped = _stopped_type(lambda: (jax.jit(f) if compiled else f)(jnp.arange(1000.0)))
    finally:
        undo()
    assert stopped in (jax.errors.JaxRuntimeError, DebuggerQuit, KeyboardInterrupt)
    gc.collect()
    assert refs and refs[0]() is None


def test_a_backend_failure_raised_findably_keeps_its_cause_and_hides_its_context():
    def backend(frames, thread_id, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise_findable(DebuggerQuit("stopped"))

    undo = jax_registry.register("findable", backend, -100)
    try:
        with pytest.raises(jax.errors.JaxRuntimeError) as info:
            jax.jit(lambda x: jax.debug.breakpoint(backend="findable"))(1.0)
            jdw.effects_barrier()
    finally:
        undo()
    assert str(original_exception(info.value)) == "stopped"
    try:
        raise_findable(ValueError("outer"))
    except ValueError as error:
        assert error.__suppress_context__ and error.__cause__ is None

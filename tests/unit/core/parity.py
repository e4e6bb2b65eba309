"""Run one program with ``jax.debug`` and with ``jaxdbg_widgets`` and capture what each prints."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import SimpleNamespace

import jax
import pytest

import jaxdbg_widgets as jdw

TWO_CALL_FORM = inspect.signature(jax.debug.print).parameters["fmt"].default is None
"""Whether this JAX's ``jax.debug.print``/``callback`` have the two-call form (JAX 0.8+)."""


def needs_jax(feature: str, present: bool) -> pytest.MarkDecorator:
    """Skip a parity test whose ``jax.debug`` counterpart this (older) JAX does not have."""
    return pytest.mark.skipif(not present, reason=f"this JAX's jax.debug has no {feature}")


JAX_DEBUG = SimpleNamespace(
    name="jax.debug",
    print=jax.debug.print,
    callback=jax.debug.callback,
    log=getattr(jax.debug, "log", None),
    breakpoint=jax.debug.breakpoint,
    effects_barrier=jax.effects_barrier,
)
JAXDBG = SimpleNamespace(
    name="jaxdbg_widgets",
    print=jdw.print,
    callback=jdw.callback,
    log=jdw.log,
    breakpoint=jdw.breakpoint,
    effects_barrier=jdw.effects_barrier,
)


def run(capfd, program: Callable[[SimpleNamespace], object], api: SimpleNamespace) -> str:
    """What ``program(api)`` writes to stdout once every callback has run."""
    capfd.readouterr()
    program(api)
    api.effects_barrier()
    return capfd.readouterr().out


def both(capfd, program: Callable[[SimpleNamespace], object]) -> tuple[str, str]:
    """``(expected, ours)``: the program's output under ``jax.debug``, then under ours."""
    expected = run(capfd, program, JAX_DEBUG)
    ours = run(capfd, program, JAXDBG)
    assert expected, "the jax.debug program printed nothing: the test would prove nothing"
    return expected, ours

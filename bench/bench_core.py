"""The core runtime against ``jax.debug``: per-call cost, batched printing, breakpoint tracing.

Run with ``python -m bench core``.
"""

from __future__ import annotations

import contextlib
import io

import jax
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from bench.report import Row, race, timed

LOOP_ITERATIONS = 10_000
BATCH = 1_000
NAMESPACE_LIST = 2_000_000


class _Discard(io.TextIOBase):
    """A stdout that drops everything, so terminal speed is not measured."""

    def write(self, text: str) -> int:
        return len(text)


SAMPLE_SECONDS = 0.1


def _calls_per_sample(fn) -> int:
    """How many calls of ``fn`` make one timing sample of about ``SAMPLE_SECONDS``."""
    return max(1, round(SAMPLE_SECONDS / timed(fn, repeat=1)))


def _repeated(fn, number: int):
    def run() -> None:
        for _ in range(number):
            fn()

    return run


def _side_by_side(ours, peer, *, rounds: int = 7) -> tuple[float, float]:
    """Median seconds per call of ``ours()`` and ``peer()``, raced round by round.

    ``report.race`` alternates which goes first, so both see the same background load on a
    shared machine; short calls are repeated within a round so each lasts about
    ``SAMPLE_SECONDS``.
    """
    with contextlib.redirect_stdout(_Discard()):
        ours_number, peer_number = _calls_per_sample(ours), _calls_per_sample(peer)
        times = race(
            {"ours": _repeated(ours, ours_number), "peer": _repeated(peer, peer_number)},
            rounds=rounds,
        )
    return times["ours"] / ours_number, times["peer"] / peer_number


def _fori_loop(stage):
    """A run of a jitted ``fori_loop`` calling ``stage(i, acc)`` once per iteration."""

    def body(i, acc):
        stage(i, acc)
        return acc + 1.0

    f = jax.jit(lambda: jax.lax.fori_loop(0, LOOP_ITERATIONS, body, 0.0))

    def run():
        f().block_until_ready()
        jax.effects_barrier()

    return run


def _batched_print(print_fn, dtype, **options):
    """A run printing every element of a vmapped batch (compiled once, then warm)."""
    f = jax.jit(jax.vmap(lambda x: print_fn("x: {}", x, **options)))
    xs = jnp.arange(BATCH, dtype=dtype)

    def run():
        f(xs)
        jax.effects_barrier()

    return run


_CELL = """
def stopped(x):
    y = x * 2
    breakpoint_fn()
    return y
jax.jit(stopped).trace(1.0)
"""


def _breakpoint_trace(breakpoint_fn, data: list[int]):
    """A run tracing a function with a breakpoint from a notebook-like namespace holding ``data``."""
    namespace = {"jax": jax, "breakpoint_fn": breakpoint_fn, "data": data}
    code = compile(_CELL, "<cell>", "exec")
    return lambda: exec(code, namespace)


def _row(name, ours, peer, unit, peer_name, target, minimum_ratio) -> Row:
    return Row(
        name=name,
        ours=ours,
        peer=peer,
        unit=unit,
        peer_name=peer_name,
        target=target,
        met=peer / ours >= minimum_ratio,
    )


def run() -> list[Row]:
    def noop(*args):
        return None

    print_ours, print_peer = _side_by_side(
        _fori_loop(lambda i, acc: jdw.print("i={} acc={}", i, acc)),
        _fori_loop(lambda i, acc: jax.debug.print("i={} acc={}", i, acc)),
    )
    callback_ours, callback_peer = _side_by_side(
        _fori_loop(lambda i, acc: jdw.callback(noop, i, acc)),
        _fori_loop(lambda i, acc: jax.debug.callback(noop, i, acc)),
    )
    batches = {
        dtype: _side_by_side(
            _batched_print(jdw.print, dtype, vmap_method="expand_dims"),
            _batched_print(jax.debug.print, dtype),
            rounds=5,
        )
        for dtype in ("int32", "float32")
    }
    data = list(range(NAMESPACE_LIST))
    trace_ours, trace_peer = _side_by_side(
        _breakpoint_trace(lambda: jdw.breakpoint(backend="cli"), data),
        _breakpoint_trace(lambda: jax.debug.breakpoint(backend="cli"), data),
        rounds=3,
    )
    per_call = 1e6 / LOOP_ITERATIONS
    return [
        _row(
            "print per call, fori_loop 10k",
            print_ours * per_call,
            print_peer * per_call,
            "us",
            "jax.debug.print",
            ">= 1.0x",
            1.0,
        ),
        _row(
            "callback per call, fori_loop 10k",
            callback_ours * per_call,
            callback_peer * per_call,
            "us",
            "jax.debug.callback",
            ">= 1.0x",
            1.0,
        ),
        *(
            _row(
                f"vmap 1k print ({dtype}), expand_dims",
                ours * 1e3,
                peer * 1e3,
                "ms",
                "jax.debug.print per element",
                ">= 50x",
                50.0,
            )
            for dtype, (ours, peer) in batches.items()
        ),
        _row(
            "breakpoint trace, 2M list in namespace",
            trace_ours * 1e3,
            trace_peer * 1e3,
            "ms",
            "jax.debug.breakpoint",
            ">= 10x",
            10.0,
        ),
    ]

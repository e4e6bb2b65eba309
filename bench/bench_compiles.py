"""Watching compiles against not watching, side by side: cached calls and cache misses.

Run with ``python -m bench compiles``.
"""

from __future__ import annotations

import logging
import re
import time

import jax
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from bench.report import Row, race
from bench.six_causes import run_six_causes
from jaxdbg_widgets.compiles import recorder
from jaxdbg_widgets.compiles.model import CompileReport

CALLS = 3_000
UNROLLED = 200
ROUNDS = 7
HIT_ROUNDS = 21


def _step():
    """A small jitted training-like step, compiled once before timing."""

    @jax.jit
    def step(w, x):
        return w - 0.01 * x.T @ jnp.tanh(x @ w)

    return step


def _cache_hits(step, w, x, watching: bool):
    def run() -> None:
        stop = recorder.start(CompileReport()) if watching else None
        out = w
        for _ in range(CALLS):
            out = step(out, x)
        out.block_until_ready()
        if stop is not None:
            stop()

    return run


def _program():
    """A new function object each call: every jit of it misses every cache (a Python loop of
    ``UNROLLED`` steps, so tracing and compiling take long enough to measure)."""

    def unrolled(x):
        for i in range(UNROLLED):
            x = jnp.sin(x) * (1.0 + i / UNROLLED)
        return x

    return unrolled


def _miss(x, watching: bool):
    def run() -> None:
        stop = recorder.start(CompileReport()) if watching else None
        jax.jit(_program())(x).block_until_ready()
        if stop is not None:
            stop()

    return run


def _listener_share(x, *, hlo: bool = False) -> tuple[float, float]:
    """Seconds the recorder spends per miss, and the seconds JAX spends tracing, lowering and
    compiling that miss (as JAX reports them), medians over ``ROUNDS`` misses."""
    ours, theirs = [], []
    listen = recorder._listen

    def timed_listen(*args, **kwargs):
        start = time.perf_counter()
        try:
            listen(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    for _ in range(ROUNDS):
        spent = [0.0]
        report = CompileReport(hlo=hlo)
        jax.monitoring.register_event_duration_secs_listener(timed_listen)
        recorder._listen = lambda *a, **k: None  # the timed copy does the work this round
        stop = recorder.start(report)
        try:
            jax.jit(_program())(x).block_until_ready()
        finally:
            stop()
            recorder._listen = listen
            jax.monitoring.unregister_event_duration_listener(timed_listen)
        ours.append(spent[0])
        theirs.append(report.total_seconds)
    ours.sort()
    theirs.sort()
    return ours[len(ours) // 2], theirs[len(theirs) // 2]


_JAX_NAMES_IT = re.compile(r"\* at (?!input path)[A-Za-z_]|differs:|defined on the same line")
"""A JAX explanation that names the cause: an argument by name, a context value, a function
made again; ``at input path [1]`` (a position in JAX's flattened arguments) does not count."""


class _Messages(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _causes_named() -> tuple[int, int, int]:
    """Of the notebook loop's retraces, how many our report names by argument path (or by the
    function or context value) and how many ``jax_explain_cache_misses`` does."""
    handler = _Messages()
    logging.getLogger("jax").addHandler(handler)
    try:
        with jdw.watch_compiles() as report, jax.explain_cache_misses(True):
            run_six_causes()
    finally:
        logging.getLogger("jax").removeHandler(handler)
    retraces = [p for p in report.recompiles() if not p.function.jax_own]
    explained = [m for m in handler.messages if "TRACING CACHE MISS" in m and "never seen" not in m]
    explained += [m for m in handler.messages if "defined on the same line" in m]
    return (
        sum(bool(p.cause) for p in retraces),
        sum(bool(_JAX_NAMES_IT.search(m)) for m in explained),
        len(retraces),
    )


def run() -> list[Row]:
    step = _step()
    w, x = jnp.ones((64, 64)) / 64, jnp.ones((8, 64))
    step(w, x).block_until_ready()
    hits = race(
        {
            "watching": _cache_hits(step, w, x, True),
            "plain": _cache_hits(step, w, x, False),
        },
        rounds=HIT_ROUNDS,
        clock=time.process_time,
    )
    report = CompileReport()
    stop = recorder.start(report)
    _cache_hits(step, w, x, False)()
    stop()
    hit_events = len(report.programs)
    v = jnp.ones(16)
    _miss(v, False)()  # warm the eager operations both sides use
    misses = race({"watching": _miss(v, True), "plain": _miss(v, False)}, rounds=ROUNDS)
    spent, jax_seconds = _listener_share(v)
    spent_hlo, jax_seconds_hlo = _listener_share(v, hlo=True)
    ours_named, jax_named, retraces = _causes_named()
    command = "python -m bench compiles"
    return [
        Row(
            f"the notebook's six causes ({retraces} retraces): causes named by argument path",
            ours_named,
            jax_named,
            "",
            "jax_explain_cache_misses",
            f"all {retraces}",
            ours_named == retraces,
            command,
        ),
        Row(
            f"{CALLS:,} cached calls of a jitted step",
            hits["watching"],
            hits["plain"],
            "s",
            "not watching",
            "watching <= 1.02x",
            hits["watching"] <= 1.02 * hits["plain"],
            command,
        ),
        Row(
            f"programs recorded during {CALLS:,} cached calls",
            hit_events,
            0,
            "",
            "none expected",
            "0: JAX calls the recorder only on a miss",
            hit_events == 0,
            command,
        ),
        Row(
            f"one cache miss ({UNROLLED}-step unrolled loop), wall time",
            misses["watching"],
            misses["plain"],
            "s",
            "not watching",
            "watching <= 1.05x",
            misses["watching"] <= 1.05 * misses["plain"],
            command,
        ),
        Row(
            "recorder seconds per miss vs JAX's trace+lower+compile",
            spent,
            jax_seconds,
            "s",
            "JAX's own stages",
            "<= 5% of JAX's",
            spent <= 0.05 * jax_seconds,
            command,
        ),
        Row(
            "the same with StableHLO operations per line (watch_compiles(hlo=True))",
            spent_hlo,
            jax_seconds_hlo,
            "s",
            "JAX's own stages",
            "<= 15% of JAX's (opt-in)",
            spent_hlo <= 0.15 * jax_seconds_hlo,
            command,
        ),
    ]


if __name__ == "__main__":
    from bench.report import format_table

    print(format_table(run()))

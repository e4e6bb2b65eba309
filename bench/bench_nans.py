"""``find_nonfinite`` against JAX's ``jax_debug_nans``, side by side in one run.

The program is a jitted chain of elementwise layers on a 1M-element float32 array with a
``log`` of a negative value a few layers from the end. The peer is the failing call with
``jax_debug_nans`` on: the compiled run, then JAX's de-optimized re-run that dispatches every
operation and checks it. Ours is ``find_nonfinite`` on the same function and argument: one
trace, compiled stretches of equations checked on the host, then the failing stretch equation
by equation. ``python -m bench nans`` runs 1,000, 5,000 and 20,000 equations;
``python -m bench.bench_nans 5000`` runs one size.

The overhead rows time one jitted training step (a two-layer MLP's SGD update, no NaN) per
call with ``%jaxdbg nans on`` (both of JAX's checks, the search waiting behind them) against
JAX's ``jax_debug_nans`` alone and against both of JAX's flags, in alternating rounds.
``python -m bench.bench_nans overhead`` runs only those.

The loop row times a NaN at iteration 19,991 of a jitted 20,000-iteration ``fori_loop`` with a
traced trip count, both sides from empty caches, best of two, against both of JAX's checks
(``python -m bench.bench_nans loop``). The transformer row does the same on a flax linen
training step from the test corpus (``transformer_step`` in ``tests/corpus/libraries.py``:
four blocks under ``nn.scan``, a padding mask that leaves one sequence with nothing to attend
to, optax Adam; ``python -m bench.bench_nans transformer``).
"""

from __future__ import annotations

import contextlib
import io
import sys
import time

import jax
import jax.numpy as jnp

from bench.report import Row, format_table
from jaxdbg_widgets.nans import find_nonfinite
from jaxdbg_widgets.notebook import nans as nans_magic

SIZES = (1_000, 5_000, 20_000)
ELEMENTS = 1_000_000
EQUATIONS_PER_LAYER = 3
ROUNDS = 3
PEER = "jax_debug_nans re-run"
CALLS = 200
OVERHEAD_ROUNDS = 15
OVERHEAD_TARGET = 1.1


def _program(equations: int):
    layers = equations // EQUATIONS_PER_LAYER
    bad = layers - 3

    def program(x):
        for layer in range(layers):
            x = jnp.log(x - 2.0) if layer == bad else jnp.sin(x)
            x = x * 0.9 + 0.01
        return x

    return jax.jit(program)


def _peer(fn, x) -> float:
    jax.config.update("jax_debug_nans", True)
    try:
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                fn(x).block_until_ready()
            except FloatingPointError:
                pass
            else:
                raise AssertionError("jax_debug_nans found no NaN")
        return time.perf_counter() - start
    finally:
        jax.config.update("jax_debug_nans", False)


def _ours(fn, x) -> float:
    start = time.perf_counter()
    report = find_nonfinite(fn, x)
    elapsed = time.perf_counter() - start
    if report.origin is None or report.origin.primitive != "log":
        raise AssertionError(f"find_nonfinite missed the log: {report!r}")
    return elapsed


def measure(equations: int) -> Row:
    """Median seconds of each over ``ROUNDS`` alternating rounds, for one program size."""
    fn = _program(equations)
    x = jnp.ones(ELEMENTS, jnp.float32)
    fn(x).block_until_ready()
    ours, peer = [], []
    for _ in range(ROUNDS):
        ours.append(_ours(fn, x))
        peer.append(_peer(fn, x))
    ours_s, peer_s = sorted(ours)[ROUNDS // 2], sorted(peer)[ROUNDS // 2]
    return Row(
        name=f"search, {equations:,} equations, 1M f32",
        ours=ours_s,
        peer=peer_s,
        unit="s",
        peer_name=PEER,
        target="no slower (ratio >= 1)",
        met=ours_s <= peer_s,
    )


LOOP_ITERATIONS = 20_000
LOOP_BAD = 19_991
LOOP_ROUNDS = 2


def _long_loop():
    """A jitted ``fori_loop`` of 20,000 iterations with a traced trip count, -inf at 19,991."""

    def program(x, n):
        def body(i, v):
            return v + jnp.log(jnp.float32(LOOP_BAD) - i.astype(jnp.float32))

        return jax.lax.fori_loop(0, n, body, x)

    return jax.jit(program), (jnp.float32(0.0), LOOP_ITERATIONS)


def _jax_fails(fn, args) -> float:
    """Seconds of the failing call with both of JAX's checks on (compiled run, then re-run)."""
    jax.config.update("jax_debug_nans", True)
    jax.config.update("jax_debug_infs", True)
    try:
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                jax.block_until_ready(fn(*args))
            except FloatingPointError:
                return time.perf_counter() - start
        raise AssertionError("JAX's checks found no NaN or Inf")
    finally:
        jax.config.update("jax_debug_nans", False)
        jax.config.update("jax_debug_infs", False)


def _cold(fn, args, check) -> tuple[float, float]:
    """Best of two rounds of ours and of JAX's checks on one failing program, each side from
    empty caches; ``check`` refuses a report that names the wrong origin."""
    ours, peer = [], []
    for _ in range(LOOP_ROUNDS):
        jax.clear_caches()
        start = time.perf_counter()
        report = find_nonfinite(fn, *args)
        ours.append(time.perf_counter() - start)
        check(report)
        jax.clear_caches()
        peer.append(_jax_fails(fn, args))
    return min(ours), min(peer)


def _row(name: str, ours: float, peer: float) -> Row:
    return Row(
        name=name,
        ours=ours,
        peer=peer,
        unit="s",
        peer_name="jax_debug_nans+infs re-run",
        target="no slower (ratio >= 1)",
        met=ours <= peer,
    )


def long_loop() -> Row:
    """Best of two rounds, each side from empty caches, on the 20,000-iteration loop."""

    def check(report) -> None:
        if report.origin is None or report.origin.path != (f"while iteration {LOOP_BAD}",):
            raise AssertionError(f"find_nonfinite missed iteration {LOOP_BAD}: {report!r}")

    ours, peer = _cold(*_long_loop(), check)
    name = f"search, -inf at iteration {LOOP_BAD:,} of a {LOOP_ITERATIONS:,}-iteration fori_loop"
    return _row(name, ours, peer)


def transformer() -> Row:
    """Best of two rounds, each side from empty caches, on a flax transformer training step
    whose padding mask leaves one sequence with no key to attend to."""
    from tests.corpus import libraries

    def check(report) -> None:
        first = report.nan_origin or report.origin
        if first is None or "softmax" not in (first.source.text if first.source else ""):
            raise AssertionError(f"find_nonfinite missed the softmax: {report!r}")

    ours, peer = _cold(libraries.transformer_step, libraries.transformer_arguments(), check)
    name = "search, flax transformer step (4 blocks under nn.scan, masked attention, adam)"
    return _row(name, ours, peer)


def _training_step():
    """A jitted SGD step of a 256-512-256 MLP on a batch of 128, and its arguments."""

    def loss(params, x, y):
        hidden = jnp.tanh(x @ params["w1"] + params["b1"])
        return jnp.mean((hidden @ params["w2"] - y) ** 2)

    @jax.jit
    def step(params, x, y):
        grads = jax.grad(loss)(params, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, grads)

    keys = jax.random.split(jax.random.key(0), 4)
    params = {
        "w1": jax.random.normal(keys[0], (256, 512)) * 0.05,
        "b1": jnp.zeros(512),
        "w2": jax.random.normal(keys[1], (512, 256)) * 0.05,
    }
    x = jax.random.normal(keys[2], (128, 256))
    y = jax.random.normal(keys[3], (128, 256))
    return step, (params, x, y)


def _per_call(step, args) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        out = step(*args)
    jax.block_until_ready(out)
    return (time.perf_counter() - start) / CALLS


def _checked(setup, step, args) -> float:
    """Seconds per call of ``step`` with ``setup`` applied, the flags put back afterwards."""
    undo = nans_magic.install(None)
    try:
        setup()
        return _per_call(step, args)
    finally:
        undo()


def _jax_flags(*flags: str):
    return lambda: [jax.config.update(flag, True) for flag in flags]


def overhead() -> list[Row]:
    """``%jaxdbg nans on`` per call against JAX's checks, median of alternating rounds."""
    step, args = _training_step()
    jax.block_until_ready(step(*args))
    setups = {
        "ours": lambda: nans_magic.set_checks(True),
        "nans": _jax_flags("jax_debug_nans"),
        "both": _jax_flags("jax_debug_nans", "jax_debug_infs"),
    }
    times: dict[str, list[float]] = {name: [] for name in setups}
    for _ in range(OVERHEAD_ROUNDS):
        for name, setup in setups.items():
            times[name].append(_checked(setup, step, args))
    median = {name: sorted(t)[OVERHEAD_ROUNDS // 2] for name, t in times.items()}
    rows = []
    for peer, peer_name in (("nans", "jax_debug_nans"), ("both", "jax_debug_nans+infs")):
        ratio = median["ours"] / median[peer]
        rows.append(
            Row(
                name=f"per-call overhead, jitted MLP step, %jaxdbg nans on / {peer_name} "
                f"= {ratio:.3f}",
                ours=median["ours"] * 1e6,
                peer=median[peer] * 1e6,
                unit="us",
                peer_name=peer_name,
                target=f"ours <= {OVERHEAD_TARGET} x peer",
                met=ratio <= OVERHEAD_TARGET,
            )
        )
    return rows


def run(sizes: tuple[int, ...] = SIZES) -> list[Row]:
    """One row per program size, the long loop's row, then the per-call overhead rows."""
    return [*(measure(n) for n in sizes), long_loop(), transformer(), *overhead()]


if __name__ == "__main__":
    if sys.argv[1:] == ["overhead"]:
        print(format_table(overhead()))
    elif sys.argv[1:] == ["loop"]:
        print(format_table([long_loop()]))
    elif sys.argv[1:] == ["transformer"]:
        print(format_table([transformer()]))
    else:
        chosen = tuple(int(a) for a in sys.argv[1:]) or SIZES
        print(format_table([*(measure(n) for n in chosen), *overhead()]))

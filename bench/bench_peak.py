"""``peak_memory`` on a 1B-parameter transformer training step given as ``ShapeDtypeStruct``s.

Side by side in one run: the report against XLA's compile alone (what ``memory_analysis()``
costs), five checkpoint policies compared against compiling them one by one, and the peak of
each program against XLA's own ``memory_analysis()`` (within 5%). Nothing is allocated.

``python -m bench peak`` runs every row; ``python -m bench.bench_peak [CASE ...]`` runs some
(``report``, ``variants``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from bench.report import Row, format_table

D_MODEL, HEADS, FFN, LAYERS, VOCAB = 2048, 16, 8192, 20, 32_000
BATCH, SEQ = 4, 512
REPORT_LIMIT_S = 60.0
VARIANTS_LIMIT_S = 300.0
AGREEMENT = 0.05
POLICIES = (
    "no checkpoint",
    "everything_saveable",
    "nothing_saveable",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
)
COMMAND = "python -m bench.bench_peak"


def parameters() -> dict[str, Any]:
    """The model's parameters as structs: layers stacked for ``scan``, ~1.07B in all."""
    import jax
    import jax.numpy as jnp

    def s(*shape: int) -> Any:
        return jax.ShapeDtypeStruct(shape, jnp.float32)

    return {
        "embed": s(VOCAB, D_MODEL),
        "layers": {
            "qkv": s(LAYERS, D_MODEL, 3 * D_MODEL),
            "out": s(LAYERS, D_MODEL, D_MODEL),
            "up": s(LAYERS, D_MODEL, FFN),
            "down": s(LAYERS, FFN, D_MODEL),
            "norm": s(LAYERS, 2, D_MODEL),
        },
    }


def parameter_count() -> int:
    import math

    import jax

    return sum(math.prod(x.shape) for x in jax.tree_util.tree_leaves(parameters()))


def make_step(policy: str) -> Callable[..., Any]:
    """One SGD step of a pre-norm transformer, each layer under ``policy``'s checkpoint."""
    import jax
    import jax.numpy as jnp

    def layer(h: Any, p: Any) -> tuple[Any, None]:
        x = _norm(h, p["norm"][0])
        q, k, v = jnp.split(x @ p["qkv"], 3, axis=-1)
        q, k, v = (t.reshape(BATCH, SEQ, HEADS, -1) for t in (q, k, v))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
        attention = jax.nn.softmax(scores, axis=-1)
        mixed = jnp.einsum("bhqk,bkhd->bqhd", attention, v).reshape(BATCH, SEQ, D_MODEL)
        h = h + mixed @ p["out"]
        h = h + jax.nn.gelu(_norm(h, p["norm"][1]) @ p["up"]) @ p["down"]
        return h, None

    if policy != "no checkpoint":
        layer = jax.checkpoint(layer, policy=getattr(jax.checkpoint_policies, policy))

    def loss(params: Any, tokens: Any) -> Any:
        h = params["embed"][tokens]
        h, _ = jax.lax.scan(layer, h, params["layers"])
        logits = h @ params["embed"].T
        return -jax.nn.log_softmax(logits).mean()

    def step(params: Any, tokens: Any) -> Any:
        grads = jax.grad(loss)(params, tokens)
        return jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, grads)

    step.__name__ = policy
    return step


def _norm(h: Any, scale: Any) -> Any:
    import jax.numpy as jnp

    return h * scale / jnp.sqrt((h * h).mean(-1, keepdims=True) + 1e-6)


def _tokens() -> Any:
    import jax
    import jax.numpy as jnp

    return jax.ShapeDtypeStruct((BATCH, SEQ), jnp.int32)


def _compile_seconds(step: Callable[..., Any]) -> float:
    import jax

    started = time.perf_counter()
    jax.jit(step).lower(parameters(), _tokens()).compile().memory_analysis()
    return time.perf_counter() - started


def _agreement_rows(peaks: Any, case: str) -> list[Row]:
    from jaxdbg_widgets.memory.units import human_bytes

    rows = []
    for r in peaks.reports:
        xla = r.xla_peak_bytes or 0
        rows.append(
            Row(
                f"peak vs memory_analysis, {r.name} ({human_bytes(r.peak_bytes)} vs "
                f"{human_bytes(xla)})",
                r.peak_bytes / 2**30,
                xla / 2**30,
                "GiB",
                "XLA memory_analysis()",
                f"within {AGREEMENT:.0%}",
                bool(xla) and abs(r.peak_bytes / xla - 1) <= AGREEMENT,
                f"{COMMAND} {case}",
            )
        )
    return rows


def _report_row() -> list[Row]:
    from jaxdbg_widgets import peak_memory

    peer = _compile_seconds(make_step("no checkpoint"))  # a new function: no cache is shared
    started = time.perf_counter()
    peaks = peak_memory(make_step("no checkpoint"), parameters(), _tokens(), device_memory="16 GiB")
    ours = time.perf_counter() - started
    billions = parameter_count() / 1e9
    row = Row(
        f"peak report, {billions:.2f}B-param transformer step (structs)",
        ours,
        peer,
        "s",
        "jit.lower.compile + memory_analysis",
        f"< {REPORT_LIMIT_S:g} s",
        ours < REPORT_LIMIT_S,
        COMMAND + " report",
    )
    return [row, *_agreement_rows(peaks, "report")]


def _variants_row() -> list[Row]:
    from jaxdbg_widgets import peak_memory

    peer = sum(_compile_seconds(make_step(policy)) for policy in POLICIES)
    steps = {policy: make_step(policy) for policy in POLICIES}  # new functions: no cache shared
    started = time.perf_counter()
    peaks = peak_memory(steps, parameters(), _tokens())
    ours = time.perf_counter() - started
    row = Row(
        f"{len(POLICIES)} checkpoint policies side by side",
        ours,
        peer,
        "s",
        "compiling each + memory_analysis",
        f"< {VARIANTS_LIMIT_S:g} s",
        ours < VARIANTS_LIMIT_S,
        COMMAND + " variants",
    )
    print(peaks.to_text().split("\n\n")[0], file=sys.stderr)
    return [row, *_agreement_rows(peaks, "variants")]


CASES: dict[str, Callable[[], list[Row]]] = {"report": _report_row, "variants": _variants_row}


def run(selected: list[str] | None = None) -> list[Row]:
    names = selected or list(CASES)
    return [row for name in names for row in CASES[name]()]


if __name__ == "__main__":
    print(format_table(run(sys.argv[1:])))

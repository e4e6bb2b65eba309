"""What loading costs: ``import jaxdbg_widgets`` over ``import jax``, and ``%load_ext jaxdbg``
in a fresh kernel over ``import jax`` there.

Every figure comes from fresh processes, ours and the peer's alternating, so both see the same
load. Targets (issue: at most 1 s more to import, 2 s more to load the extension): the extra
seconds, not a ratio, so a row fails when the difference passes its bound.
Run with ``python -m bench load``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from jupyter_client.manager import start_new_kernel

from bench.report import Row

ROUNDS = 5
KERNEL_ROUNDS = 3
IMPORT_BOUND = 1.0
LOAD_BOUND = 2.0

_TIMED_IMPORT = "import time; t = time.perf_counter(); {body}; print(time.perf_counter() - t)"


def _import_seconds(body: str) -> float:
    """Seconds a fresh interpreter spends on ``body``, measured inside it (start-up excluded)."""
    done = subprocess.run(
        [sys.executable, "-c", _TIMED_IMPORT.format(body=body)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def _kernel_seconds(body: str) -> float:
    """Seconds a fresh kernel spends running ``body`` as one cell, measured inside it."""
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        code = f"import time as _t\n_s = _t.perf_counter()\n{body}\nprint(_t.perf_counter() - _s)"
        lines: list[str] = []
        reply = client.execute_interactive(
            code,
            timeout=120,
            output_hook=lambda msg: (
                lines.append(msg["content"].get("text", ""))
                if msg["msg_type"] == "stream"
                else None
            ),
        )
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"the timed cell failed: {reply['content']}")
        return float("".join(lines).split()[-1])
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _alternating(ours: str, peer: str, measure, rounds: int) -> tuple[float, float]:
    """Median seconds of ``ours`` and ``peer``, measured in turn so both share the load."""
    times: dict[str, list[float]] = {"ours": [], "peer": []}
    for round_ in range(rounds):
        order = [("ours", ours), ("peer", peer)]
        for name, body in order if round_ % 2 == 0 else order[::-1]:
            times[name].append(measure(body))
    return statistics.median(times["ours"]), statistics.median(times["peer"])


def _row(name: str, ours: float, peer: float, peer_name: str, bound: float) -> Row:
    return Row(
        name=name,
        ours=ours,
        peer=peer,
        unit="s",
        peer_name=peer_name,
        target=f"<= +{bound:g} s (measured +{ours - peer:.2f} s)",
        met=ours - peer <= bound,
    )


def run() -> list[Row]:
    started = time.perf_counter()
    import_ours, import_peer = _alternating(
        "import jax; import jaxdbg_widgets", "import jax", _import_seconds, ROUNDS
    )
    load_ours, load_peer = _alternating(
        "import jax\nget_ipython().run_line_magic('load_ext', 'jaxdbg')",
        "import jax",
        _kernel_seconds,
        KERNEL_ROUNDS,
    )
    print(f"load bench took {time.perf_counter() - started:.0f} s", file=sys.stderr)
    python = f"Python {sys.version_info.major}.{sys.version_info.minor}"
    return [
        _row(
            f"import jaxdbg_widgets ({python})",
            import_ours,
            import_peer,
            "import jax",
            IMPORT_BOUND,
        ),
        _row(
            f"%load_ext jaxdbg in a fresh kernel ({python})",
            load_ours,
            load_peer,
            "import jax there",
            LOAD_BOUND,
        ),
    ]

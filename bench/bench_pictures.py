"""Array pictures against treescope's ``render_array``, side by side in one run.

- 1M-element float32 (1000 x 1000): kernel-side build time of ``show(x)`` with its static HTML
  and widget view, against ``treescope.render_to_html(treescope.render_array(x))``; and the
  bytes a notebook stores for each (ours: the widget's view JSON plus the HTML twin).
- 100M-element float32 (10000 x 10000), reduced in the kernel: build time and output size
  against the issue's limits (1 s, 300 KB); treescope is not run on it.
- The first debugger thumbnail in a fresh interpreter (JAX and the package already imported,
  as at a first breakpoint), against importing matplotlib there, which it used to pay.

``python -m bench pictures`` runs it in its own interpreter.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from bench.report import Row, format_table, race

COMMAND = "python -m bench pictures"
SPEED_TARGET = 5.0
SIZE_TARGET = 10.0
LARGE_TIME_LIMIT_S = 1.0
LARGE_SIZE_LIMIT = 300_000
FIRST_THUMB_LIMIT_MS = 100.0
FRESH_ROUNDS = 3

# Run in a fresh interpreter; each prints the milliseconds of its timed part.
FIRST_THUMB = """
import time, jax, numpy as np, jaxdbg_widgets
from jaxdbg_widgets.pictures.thumbnail import thumbnail
x = jax.device_put(np.random.default_rng(0).normal(size=(256, 256)).astype(np.float32))
x.block_until_ready()
start = time.perf_counter()
thumbnail(x)
print((time.perf_counter() - start) * 1000)
"""
MATPLOTLIB_IMPORT = """
import time, jax, numpy as np, jaxdbg_widgets
start = time.perf_counter()
import matplotlib
matplotlib.colormaps["viridis"]
print((time.perf_counter() - start) * 1000)
"""


def _ours(x: object) -> tuple[str, str]:
    """What a notebook gets from ``show(x)``: the widget's view as JSON and the static twin."""
    from jaxdbg_widgets.pictures import show
    from jaxdbg_widgets.pictures.html import html_from_view
    from jaxdbg_widgets.pictures.view import pictures_view

    view = pictures_view(show(x))
    return json.dumps(view), html_from_view(view)


def run() -> list[Row]:
    import numpy as np
    import treescope

    million = np.random.default_rng(0).normal(size=(1000, 1000)).astype(np.float32)

    def theirs() -> str:
        return treescope.render_to_html(treescope.render_array(million))

    theirs()  # first call imports and compiles treescope's pieces; the design note times the second
    _ours(np.zeros((2, 2), np.float32))  # and ours imports jax (already loaded in any JAX session)
    times = race(
        {"ours": lambda: _ours(million), "theirs": theirs}, rounds=3, clock=time.process_time
    )
    state, html = _ours(million)
    ours_bytes = len(state.encode()) + len(html.encode())
    peer_bytes = len(theirs().encode())
    rows = [
        Row(
            "1M float32 picture: kernel-side build",
            times["ours"] * 1000,
            times["theirs"] * 1000,
            "ms",
            "treescope.render_array + render_to_html",
            f">= {SPEED_TARGET:g}x faster",
            times["theirs"] / times["ours"] >= SPEED_TARGET,
            COMMAND,
        ),
        Row(
            "1M float32 picture: bytes stored (view JSON + HTML twin)",
            ours_bytes / 1024,
            peer_bytes / 1024,
            "KiB",
            "treescope HTML",
            f">= {SIZE_TARGET:g}x smaller",
            peer_bytes / ours_bytes >= SIZE_TARGET,
            COMMAND,
        ),
    ]
    hundred = np.random.default_rng(1).normal(size=(10_000, 10_000)).astype(np.float32)
    hundred[8123, 4567] = np.nan
    large = race({"ours": lambda: _ours(hundred)}, rounds=3, clock=time.process_time)["ours"]
    state, html = _ours(hundred)
    large_bytes = len(state.encode()) + len(html.encode())
    rows += [
        Row(
            "100M float32 picture, reduced: build",
            large * 1000,
            LARGE_TIME_LIMIT_S * 1000,
            "ms",
            "limit",
            f"< {LARGE_TIME_LIMIT_S:g} s",
            large < LARGE_TIME_LIMIT_S,
            COMMAND,
        ),
        Row(
            "100M float32 picture, reduced: bytes stored (view JSON + HTML twin)",
            large_bytes / 1024,
            LARGE_SIZE_LIMIT / 1024,
            "KiB",
            "limit",
            f"< {LARGE_SIZE_LIMIT // 1000} KB",
            large_bytes < LARGE_SIZE_LIMIT,
            COMMAND,
        ),
    ]
    first, matplotlib_ms = _fresh(FIRST_THUMB), _fresh(MATPLOTLIB_IMPORT)
    rows.append(
        Row(
            "first debugger thumbnail (256 x 256) in a fresh interpreter",
            first,
            matplotlib_ms,
            "ms",
            "importing matplotlib there",
            f"< {FIRST_THUMB_LIMIT_MS:g} ms",
            first < FIRST_THUMB_LIMIT_MS,
            COMMAND,
        )
    )
    return rows


def _fresh(script: str) -> float:
    """Median milliseconds ``script`` prints, each round in a new interpreter."""
    times = []
    for _ in range(FRESH_ROUNDS):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


if __name__ == "__main__":
    print(format_table(run()))

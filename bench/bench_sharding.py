"""Sharding views against their peers, timed side by side in one run with alternating rounds
(this process's CPU time, so other work on a busy machine does not count).

- Speed: our text, our HTML and our widget state against ``jax.debug.visualize_sharding``'s text,
  at 256 and 4,096 devices, for 3-D and 4-D facet layouts and a replicated-heavy mesh, plus a
  scaling property (time per shard at 4,096 devices against 256); our HTML against treescope's.
- Payload: our widget as a saved notebook stores it (state with its JavaScript and CSS, plus the
  static HTML fallback) against treescope's HTML, which carries its own runtime.

``python -m bench.bench_sharding [CASE ...]`` runs single cases (names as in ``CASES``).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.report import Row, format_table, race

ROUNDS = 5
TEXT_TARGET = 3.0
HTML_TARGET = 15.0
STATE_TARGET = 15.0
LARGE_HTML_LIMIT_S = 0.05
SCALING_LIMIT = 1.5
JAX = "jax.debug.visualize_sharding"


@dataclass(frozen=True)
class Case:
    """One sharding to draw; ``peer`` is the 2-D case JAX draws for it when it is above rank 2."""

    key: str
    title: str
    splits: tuple[int, ...]
    size: int
    replicas: int = 1
    peer: str | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.size for _ in self.splits)

    def sharding(self) -> Any:
        from jaxdbg_widgets.sharding.stand_in import GridSharding

        return GridSharding(self.splits, replicas=self.replicas, per_process=1024)

    @property
    def shards(self) -> int:
        count = 1
        for s in self.splits:
            count *= s
        return count


CASES = {
    case.key: case
    for case in (
        Case("2d-256", "2-D, 256 devices", (16, 16), 128),
        Case("2d-4096", "2-D, 4,096 devices", (64, 64), 512),
        Case("3d-4096", "3-D facets, 4,096 devices", (16, 16, 16), 128, peer="2d-4096"),
        Case("4d-4096", "4-D facets, 4,096 devices", (8, 8, 8, 8), 64, peer="2d-4096"),
        Case("replicated-4096", "4,096 devices, 16 shards", (4, 4), 64, replicas=256),
    )
}


def _jax_text(shape: tuple[int, ...], sharding: Any) -> None:
    import jax

    with contextlib.redirect_stdout(io.StringIO()):
        jax.debug.visualize_sharding(shape, sharding, use_color=False)


def _contenders(case: Case) -> dict[str, Callable[[], object]]:
    """Our three renderers from scratch (layout included) and JAX's text of the same mesh."""
    from jaxdbg_widgets import sharding_html, sharding_text
    from jaxdbg_widgets.sharding.options import RenderOptions
    from jaxdbg_widgets.sharding.view import layout_and_view

    shape, sharding = case.shape, case.sharding()
    peer = CASES[case.peer] if case.peer else case
    peer_shape, peer_sharding = peer.shape, peer.sharding()

    def state() -> str:  # what ShardingWidget(shape, sharding) builds and sends
        return json.dumps(layout_and_view(shape, sharding, options=RenderOptions())[1])

    return {
        "text": lambda: sharding_text(shape, sharding, use_color=False),
        "html": lambda: sharding_html(shape, sharding),
        "state": state,
        "jax": lambda: _jax_text(peer_shape, peer_sharding),
    }


def _speed_rows(case: Case, times: dict[str, float]) -> list[Row]:
    command = f"python -m bench.bench_sharding {case.key}"
    peer_name = JAX if case.peer is None else f"{JAX}, 2-D, same devices (JAX draws rank <= 2)"
    jax_ms = times["jax"] * 1000
    html_target = f">= {HTML_TARGET:g}x faster"
    html_met = times["jax"] / times["html"] >= HTML_TARGET
    if case.shards * case.replicas >= 4096:
        html_target += f", < {LARGE_HTML_LIMIT_S * 1000:g} ms"
        html_met = html_met and times["html"] < LARGE_HTML_LIMIT_S
    return [
        Row(
            f"sharding text (no colour, same as JAX's), {case.title}",
            times["text"] * 1000,
            jax_ms,
            "ms",
            peer_name,
            f">= {TEXT_TARGET:g}x faster",
            times["jax"] / times["text"] >= TEXT_TARGET,
            command,
        ),
        Row(
            f"sharding html, {case.title}",
            times["html"] * 1000,
            jax_ms,
            "ms",
            peer_name,
            html_target,
            html_met,
            command,
        ),
        Row(
            f"sharding widget state (view model + JSON), {case.title}",
            times["state"] * 1000,
            jax_ms,
            "ms",
            peer_name,
            f">= {STATE_TARGET:g}x faster",
            times["jax"] / times["state"] >= STATE_TARGET,
            command,
        ),
    ]


def _scaling_rows(small: dict[str, float], large: dict[str, float]) -> list[Row]:
    """Time per shard at 4,096 devices against 256: linear growth keeps the ratio near 1."""
    small_n, large_n = CASES["2d-256"].shards, CASES["2d-4096"].shards
    rows = []
    for name, what in (("text", "text"), ("html", "HTML"), ("state", "widget state")):
        per_large = large[name] / large_n * 1e6
        per_small = small[name] / small_n * 1e6
        rows.append(
            Row(
                f"sharding {what} time per shard, 4,096 vs 256 devices",
                per_large,
                per_small,
                "us/shard",
                "ours at 256 devices",
                f"<= {SCALING_LIMIT:g}x the 256-device cost",
                per_large <= SCALING_LIMIT * per_small,
                "python -m bench.bench_sharding 2d-256 2d-4096",
            )
        )
    return rows


def _treescope_rows() -> list[Row]:
    """Our HTML against treescope's for real arrays on 8 devices: build time and gzip size."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    import treescope
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from jaxdbg_widgets import ShardingWidget, sharding_html

    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("x", "y"))
    command = "python -m bench.bench_sharding treescope"
    rows = []
    for spec, what in ((PartitionSpec("x", "y"), "8 shards"), (PartitionSpec(), "1 shard")):
        arr = jax.device_put(jnp.zeros((64, 64)), NamedSharding(mesh, spec))

        def theirs(arr: Any = arr) -> str:
            figure = treescope.render_array_sharding(arr)
            return treescope.render_to_html(figure, compressed=False)

        def ours(arr: Any = arr) -> str:
            return sharding_html(arr.shape, arr.sharding, dtype=arr.dtype)

        times = race({"ours": ours, "theirs": theirs}, rounds=ROUNDS * 2, clock=time.process_time)
        rows.append(
            Row(
                f"sharding html build, 8 devices, {what}",
                times["ours"] * 1000,
                times["theirs"] * 1000,
                "ms",
                "treescope.render_array_sharding + render_to_html",
                "faster than treescope",
                times["ours"] < times["theirs"],
                command,
            )
        )
        saved = _gzip_size(_saved_widget(ShardingWidget.from_array(arr)))
        peer = _gzip_size(theirs())
        rows.append(
            Row(
                f"payload gzip, 8 devices, {what}: widget state + JS + CSS + static HTML",
                saved / 1024,
                peer / 1024,
                "KiB",
                "treescope HTML with its JS runtime",
                "smaller than treescope",
                saved < peer,
                command,
            )
        )
    return rows


def _saved_widget(widget: Any) -> str:
    """What a saved notebook keeps for the widget: its synced state (the view model, JavaScript
    and CSS included) and the static HTML fallback of its output."""
    state = widget.get_state()
    return json.dumps(state) + widget.to_html()


def _gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), mtime=0))


def run(keys: list[str] | None = None) -> list[Row]:
    """Every case (or those in ``keys``; ``treescope`` names the treescope rows)."""
    keys = keys or [*CASES, "treescope"]
    unknown = set(keys) - {*CASES, "treescope"}
    if unknown:
        raise SystemExit(f"unknown case(s) {sorted(unknown)}; have {[*CASES, 'treescope']}")
    rows: list[Row] = []
    times: dict[str, dict[str, float]] = {}
    for key in keys:
        if key in CASES:
            times[key] = race(_contenders(CASES[key]), rounds=ROUNDS, clock=time.process_time)
            rows.extend(_speed_rows(CASES[key], times[key]))
    if "2d-256" in times and "2d-4096" in times:
        rows.extend(_scaling_rows(times["2d-256"], times["2d-4096"]))
    if "treescope" in keys:
        rows.extend(_treescope_rows())
    return rows


if __name__ == "__main__":
    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    print(format_table(run(sys.argv[1:])))

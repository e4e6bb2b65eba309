"""Sharding views: our HTML against ``jax.debug.visualize_sharding`` (speed) and treescope's
``render_array_sharding`` (gzip-compressed payload), measured side by side in one run."""

from __future__ import annotations

import contextlib
import gzip
import io
import itertools
from dataclasses import dataclass

from bench.report import Row, timed

SPEED_TARGET = 5.0
LARGE_LIMIT_S = 0.1


@dataclass(frozen=True)
class _Device:
    id: int
    platform: str = "tpu"
    process_index: int = 0


class _Grid:
    """A sharding over ``rows x cols`` stand-in devices, for device counts beyond this machine."""

    def __init__(self, rows: int, cols: int) -> None:
        self.splits = (rows, cols)
        self.devices = [_Device(i, process_index=i // 1024) for i in range(rows * cols)]
        self.device_set = set(self.devices)

    def devices_indices_map(self, shape):
        steps = [size // n for size, n in zip(shape, self.splits, strict=True)]
        blocks = [
            [slice(i * step, (i + 1) * step) for i in range(n)]
            for step, n in zip(steps, self.splits, strict=True)
        ]
        return dict(zip(self.devices, itertools.product(*blocks), strict=True))


def _jax_text(shape, sharding) -> None:
    import jax

    with contextlib.redirect_stdout(io.StringIO()):
        jax.debug.visualize_sharding(shape, sharding)


def _gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), mtime=0))


def _speed_rows() -> list[Row]:
    from jaxdbg_widgets import sharding_html

    rows = []
    for rows_, cols, repeat in ((16, 16, 5), (64, 64, 3)):
        sharding, shape = _Grid(rows_, cols), (rows_ * 8, cols * 8)
        ours = timed(lambda s=sharding, sh=shape: sharding_html(sh, s), repeat=repeat)
        peer = timed(lambda s=sharding, sh=shape: _jax_text(sh, s), repeat=1 if cols > 16 else 3)
        devices = rows_ * cols
        if devices == 256:
            target, met = f">= {SPEED_TARGET:g}x faster", peer / ours >= SPEED_TARGET
        else:
            target, met = f"< {LARGE_LIMIT_S * 1000:g} ms", ours < LARGE_LIMIT_S
        rows.append(
            Row(
                f"sharding html, 2-D, {devices} devices",
                ours * 1000,
                peer * 1000,
                "ms",
                "jax.debug.visualize_sharding",
                target,
                met,
            )
        )
    return rows


def _payload_rows() -> list[Row]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    import treescope
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from jaxdbg_widgets import sharding_html

    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("x", "y"))
    rows = []
    for spec, what in ((PartitionSpec("x", "y"), "8 shards"), (PartitionSpec(), "1 shard")):
        arr = jax.device_put(jnp.zeros((64, 64)), NamedSharding(mesh, spec))
        ours = _gzip_size(sharding_html(arr.shape, arr.sharding, dtype=arr.dtype))
        peer_html = treescope.render_to_html(treescope.render_array_sharding(arr), compressed=False)
        peer = _gzip_size(peer_html)
        rows.append(
            Row(
                f"payload gzip, 8 devices, {what}",
                ours / 1024,
                peer / 1024,
                "KiB",
                "treescope.render_array_sharding",
                "smaller than treescope",
                ours < peer,
            )
        )
    for count in (256, 4096):
        side = int(count**0.5)
        ours = _gzip_size(sharding_html((side * 8, side * 8), _Grid(side, side)))
        eight = rows[0].ours * 1024
        rows.append(
            Row(
                f"payload gzip, {count} shards (vs 8 shards)",
                ours / 1024,
                eight / 1024,
                "KiB",
                "ours at 8 shards",
                "grows with shards",
                ours > eight,
            )
        )
    return rows


def run() -> list[Row]:
    return _speed_rows() + _payload_rows()

"""The memory map against the loop people write today, timed side by side in one run.

The peer sums ``nbytes`` per device by walking every leaf's ``devices_indices_map`` (for real
arrays, ``addressable_shards``). The big case is a transformer-like tree of 10,000 leaves on a
64 x 64 stand-in mesh of 4,096 devices; the peer is timed on a slice of the leaves and scaled to
all of them (it is linear in leaves), since the full loop takes minutes.

``python -m bench memory`` runs every row; ``python -m bench.bench_memory [CASE ...]`` runs some
(``model``, ``distinct``, ``html``, ``cpu``).
"""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.report import Row, format_table, timed
from jaxdbg_widgets.sharding.stand_in import StandInDevice

LEAVES = 10_000
MESH = (("data", 64), ("model", 64))
PEER_SLICE = 250
MODEL_LIMIT_S = 1.0
SPEED_TARGET = 10.0
HTML_LIMIT_KIB = 300.0
PEER = "loop over devices_indices_map"


class _Mesh:
    """The parts of a ``jax.sharding.Mesh`` the map reads: a device array and axis names."""

    def __init__(self, axes: tuple[tuple[str, int], ...]) -> None:
        self.axis_names = tuple(name for name, _ in axes)
        self.shape = dict(axes)
        count = math.prod(self.shape.values())
        flat = [StandInDevice(i, process_index=i // 256) for i in range(count)]
        self.devices = np.array(flat, dtype=object).reshape(tuple(self.shape.values()))


class _NamedSharding:
    """A stand-in ``NamedSharding``: each spec entry splits a dimension over one mesh axis."""

    def __init__(self, mesh: _Mesh, spec: tuple[str | None, ...]) -> None:
        self.mesh = mesh
        self.spec = spec
        self._maps: dict[tuple[int, ...], dict[StandInDevice, tuple[slice, ...]]] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _NamedSharding) and (other.mesh, other.spec) == (
            self.mesh,
            self.spec,
        )

    def __hash__(self) -> int:
        return hash((id(self.mesh), self.spec))

    def devices_indices_map(self, shape: tuple[int, ...]) -> dict[StandInDevice, tuple[slice, ...]]:
        """Each device's index, kept per shape as JAX keeps its own (an LRU cache)."""
        if shape not in self._maps:
            self._maps[shape] = self._indices(shape)
        return self._maps[shape]

    def _indices(self, shape: tuple[int, ...]) -> dict[StandInDevice, tuple[slice, ...]]:
        names = self.mesh.axis_names
        result = {}
        for position in itertools.product(*(range(n) for n in self.mesh.shape.values())):
            coords = dict(zip(names, position, strict=True))
            index = []
            for size, axis in zip(shape, self.spec, strict=True):
                if axis is None:
                    index.append(slice(None))
                else:
                    step = size // self.mesh.shape[axis]
                    index.append(slice(coords[axis] * step, (coords[axis] + 1) * step))
            result[self.mesh.devices[position]] = tuple(index)
        return result


@dataclass(frozen=True)
class _Leaf:
    shape: tuple[int, ...]
    dtype: Any
    sharding: Any


def _transformer(leaves: int, *, distinct: bool = False) -> dict[str, Any]:
    """Layers of attention, MLP and norm weights; ``distinct`` gives every leaf its own shape."""
    mesh = _Mesh(MESH)
    half, f32 = np.dtype("float16"), np.dtype("float32")
    per_layer = [
        ("q", (1024, 1024), ("data", "model"), half),
        ("k", (1024, 1024), ("data", "model"), half),
        ("v", (1024, 1024), ("data", "model"), half),
        ("o", (1024, 1024), ("model", "data"), half),
        ("up", (1024, 4096), ("data", "model"), half),
        ("gate", (1024, 4096), ("data", "model"), half),
        ("down", (4096, 1024), ("model", "data"), half),
        ("norm1", (1024,), (None,), f32),
        ("norm2", (1024,), (None,), f32),
        ("bias", (4096,), ("model",), f32),
    ]
    shardings: dict[tuple[str | None, ...], _NamedSharding] = {}
    tree: dict[str, Any] = {}
    for i in range(leaves):
        name, shape, spec, dtype = per_layer[i % len(per_layer)]
        if distinct:
            shape = (shape[0] + 64 * (i + 1), *shape[1:])
        sharding = shardings.setdefault(spec, _NamedSharding(mesh, spec))
        tree.setdefault(f"layer{i // len(per_layer):04d}", {})[name] = _Leaf(shape, dtype, sharding)
    return tree


def peer_loop(leaves: list[Any]) -> dict[int, int]:
    """What a user writes today: every device of every leaf, summing the shard's bytes."""
    per_device: dict[int, int] = {}
    for leaf in leaves:
        itemsize = np.dtype(leaf.dtype).itemsize
        for device, index in leaf.sharding.devices_indices_map(leaf.shape).items():
            size = math.prod(
                len(range(*s.indices(n))) for s, n in zip(index, leaf.shape, strict=True)
            )
            per_device[device.id] = per_device.get(device.id, 0) + size * itemsize
    return per_device


def _leaves(tree: dict[str, Any]) -> list[Any]:
    return [leaf for layer in tree.values() for leaf in layer.values()]


def _model_row() -> Row:
    from jaxdbg_widgets import memory_map

    tree = _transformer(LEAVES)
    leaves = _leaves(tree)
    ours = timed(lambda: memory_map(tree), repeat=3)
    peer = timed(lambda: peer_loop(leaves[:PEER_SLICE]), repeat=1) * LEAVES / PEER_SLICE
    first = leaves[:PEER_SLICE]
    assert {d.id: d.bytes for d in memory_map(first).devices} == peer_loop(first)
    return Row(
        f"memory model, {LEAVES:,} leaves x 4,096 devices",
        ours,
        peer,
        "s",
        f"{PEER} (timed on {PEER_SLICE} leaves, scaled)",
        f"< {MODEL_LIMIT_S:g} s and >= {SPEED_TARGET:g}x",
        ours < MODEL_LIMIT_S and peer / ours >= SPEED_TARGET,
    )


def _distinct_row() -> Row:
    from jaxdbg_widgets import memory_map

    count = 100
    ours = timed(lambda: memory_map(_transformer(count, distinct=True)), repeat=1)
    peer = timed(lambda: peer_loop(_leaves(_transformer(count, distinct=True))), repeat=1)
    return Row(
        f"memory model, {count} leaves x 4,096 devices, every leaf its own shape",
        ours,
        peer,
        "s",
        PEER,
        "within 1.25x of the loop (nothing to share)",
        ours <= peer * 1.25,
    )


def _html_row() -> Row:
    from jaxdbg_widgets import memory_map, sharding_html

    tree = _transformer(LEAVES)
    html = memory_map(tree).to_html()
    one = next(iter(tree["layer0000"].values()))
    reference = sharding_html(one.shape, one.sharding, dtype=one.dtype)
    return Row(
        f"memory html gzip, {LEAVES:,} leaves x 4,096 devices",
        _gzip_kib(html),
        _gzip_kib(reference),
        "KiB",
        "sharding_html of one of its leaves",
        f"< {HTML_LIMIT_KIB:g} KiB",
        _gzip_kib(html) < HTML_LIMIT_KIB,
    )


def _cpu_row() -> Row:
    """Real arrays on the 8 simulated CPU devices, against the ``addressable_shards`` loop."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from jaxdbg_widgets import memory_map

    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))
    specs = [PartitionSpec("data", "model"), PartitionSpec(None, "model"), PartitionSpec()]
    base = jnp.zeros((64, 64), jnp.float32)
    tree = [jax.device_put(base, NamedSharding(mesh, specs[i % 3])) for i in range(2_000)]

    def shards_loop() -> dict[int, int]:
        per_device: dict[int, int] = {}
        for leaf in jax.tree_util.tree_leaves(tree):
            for shard in leaf.addressable_shards:
                per_device[shard.device.id] = per_device.get(shard.device.id, 0) + (
                    shard.data.nbytes
                )
        return per_device

    assert {d.id: d.bytes for d in memory_map(tree).devices} == shards_loop()
    ours = timed(lambda: memory_map(tree), repeat=3)
    peer = timed(shards_loop, repeat=3)
    return Row(
        "memory model, 2,000 real arrays x 8 CPU devices",
        ours,
        peer,
        "s",
        "loop over addressable_shards",
        "faster than the loop",
        ours < peer,
    )


def _gzip_kib(text: str) -> float:
    return len(gzip.compress(text.encode("utf-8"), mtime=0)) / 1024


CASES: dict[str, Callable[[], Row]] = {
    "model": _model_row,
    "distinct": _distinct_row,
    "html": _html_row,
    "cpu": _cpu_row,
}


def run(cases: list[str] | None = None) -> list[Row]:
    """The rows of ``cases`` (all by default), each with the command that reproduces it alone."""
    return [
        dataclasses.replace(CASES[name](), command=f"python -m bench.bench_memory {name}")
        for name in cases or CASES
    ]


if __name__ == "__main__":
    print(format_table(run(sys.argv[1:])))

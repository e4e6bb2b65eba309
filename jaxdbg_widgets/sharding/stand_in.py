"""Stand-in devices and a grid sharding over them, to draw meshes larger than this machine has.

Every sharding view only needs ``devices_indices_map(shape)`` and devices with ``id``,
``platform`` and ``process_index``, so a 4,096-device pod slice can be previewed (and the views
tested and timed) on a laptop with these.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class StandInDevice:
    """The three attributes of a ``jax.Device`` that the sharding views read; like a real
    device, each one is equal only to itself."""

    id: int
    platform: str = "tpu"
    process_index: int = 0


class GridSharding:
    """Splits dimension ``d`` into ``splits[d]`` blocks (uneven when it does not divide), each block
    held by ``replicas`` consecutive devices; devices ``per_process`` at a time share a process."""

    def __init__(
        self,
        splits: Sequence[int],
        *,
        replicas: int = 1,
        per_process: int | None = None,
        platform: str = "tpu",
    ) -> None:
        self.splits = tuple(splits)
        self.replicas = replicas
        count = replicas
        for s in self.splits:
            count *= s
        per_process = per_process or count
        self.devices = [StandInDevice(i, platform, i // per_process) for i in range(count)]
        self.device_set = set(self.devices)
        self._maps: dict[tuple[int, ...], dict[StandInDevice, tuple[slice, ...]]] = {}

    def devices_indices_map(self, shape: Sequence[int]) -> dict[StandInDevice, tuple[slice, ...]]:
        """Each device's index: one block per dimension, in row-major order of the blocks; kept
        per shape, as JAX keeps its own (a cache keyed by sharding and shape)."""
        key = tuple(shape)
        if key not in self._maps:
            self._maps[key] = self._indices(key)
        return self._maps[key]

    def _indices(self, shape: tuple[int, ...]) -> dict[StandInDevice, tuple[slice, ...]]:
        blocks = [_blocks(size, n) for size, n in zip(shape, self.splits, strict=True)]
        indices = itertools.chain.from_iterable(
            itertools.repeat(index, self.replicas) for index in itertools.product(*blocks)
        )
        return dict(zip(self.devices, indices, strict=True))


def _blocks(size: int, n: int) -> list[slice]:
    step = -(-size // n)
    return [slice(min(i * step, size), min((i + 1) * step, size)) for i in range(n)]

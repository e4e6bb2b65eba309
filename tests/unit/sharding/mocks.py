"""Stand-in devices and shardings for device counts the 8 simulated CPUs cannot reach."""

from __future__ import annotations

import itertools
from dataclasses import dataclass


@dataclass(frozen=True)
class MockDevice:
    id: int
    platform: str = "tpu"
    process_index: int = 0


class GridSharding:
    """Splits each dimension into ``splits[d]`` blocks (uneven when it does not divide), each block
    held by ``replicas`` consecutive devices; devices ``per_process`` at a time share a process."""

    def __init__(self, splits, *, replicas=1, per_process=None, platform="tpu"):
        self.splits = tuple(splits)
        self.replicas = replicas
        count = replicas
        for s in self.splits:
            count *= s
        per_process = per_process or count
        self.devices = [MockDevice(i, platform, i // per_process) for i in range(count)]
        self.device_set = set(self.devices)

    def devices_indices_map(self, shape):
        blocks = [_blocks(size, n) for size, n in zip(shape, self.splits, strict=True)]
        devices = iter(self.devices)
        result = {}
        for combo in itertools.product(*blocks):
            index = tuple(slice(a, b) for a, b in combo)
            for _ in range(self.replicas):
                result[next(devices)] = index
        return result


def _blocks(size, n):
    step = -(-size // n)
    return [(min(i * step, size), min((i + 1) * step, size)) for i in range(n)]

"""What was alive when memory ran out: the live arrays, largest first, and who holds them.

Shown after a cell's ``RESOURCE_EXHAUSTED`` error (JAX's error itself is kept as it is): each
array's shape, dtype, sharding, bytes per device and the user's variables that hold it. Read
from ``jax.live_arrays()`` and shardings only: nothing is copied or allocated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from jaxdbg_widgets.memory.sources import all_variable_names
from jaxdbg_widgets.memory.units import human_bytes

MARKER = "RESOURCE_EXHAUSTED"
OUT_OF_MEMORY = "Out of memory allocating"
TOP = 20  # arrays listed; the rest are counted


@dataclass(frozen=True)
class LiveArray:
    """One live array: shape, dtype, sharding, its largest bytes on one device, and names."""

    shape: tuple[int, ...]
    dtype: str
    sharding: str
    bytes_per_device: int
    devices: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class LiveArrays:
    """Every live array, largest per device first."""

    arrays: tuple[LiveArray, ...]

    def to_text(self) -> str:
        """A header and one line per array, the largest first."""
        if not self.arrays:
            return "live arrays when memory ran out: none"
        total = sum(a.bytes_per_device for a in self.arrays)
        lines = [
            f"live arrays when memory ran out: {len(self.arrays)}, up to "
            f"{human_bytes(total)} on one device, largest first:"
        ]
        for a in self.arrays[:TOP]:
            shape = f"{a.dtype}[{','.join(map(str, a.shape))}]"
            held = ", ".join(a.names) if a.names else "(no variable)"
            lines.append(
                f"  {human_bytes(a.bytes_per_device):>10}/device x{a.devices:<3} {shape:<24} "
                f"{a.sharding:<28} {held}"
            )
        if len(self.arrays) > TOP:
            lines.append(f"  ... and {len(self.arrays) - TOP} more")
        return "\n".join(lines)

    def to_html(self) -> str:
        rows = "".join(
            f"<tr><td>{escape(human_bytes(a.bytes_per_device))}</td><td>{a.devices}</td>"
            f"<td>{escape(a.dtype)}[{','.join(map(str, a.shape))}]</td>"
            f"<td>{escape(a.sharding)}</td><td>{escape(', '.join(a.names))}</td></tr>"
            for a in self.arrays[:TOP]
        )
        return (
            '<div class="jdw-oom"><p>live arrays when memory ran out, largest first</p>'
            "<table><tr><th>bytes per device</th><th>devices</th><th>shape</th>"
            f"<th>sharding</th><th>held by</th></tr>{rows}</table></div>"
        )

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        return {"text/plain": self.to_text(), "text/html": self.to_html()}


def is_out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is XLA running out of device memory: ``RESOURCE_EXHAUSTED``, or an
    allocation that failed while a computation was dispatched (XLA's CPU client says
    ``INTERNAL: ... Out of memory allocating N bytes`` there)."""
    text = str(error)
    return MARKER in text or OUT_OF_MEMORY in text


def live_arrays(namespace: Mapping[str, Any] | None = None) -> LiveArrays:
    """Every live, undeleted array, named by ``namespace``'s variables, largest first."""
    import jax

    names = all_variable_names(namespace) if namespace else {}
    found = []
    for arr in jax.live_arrays():
        try:
            if arr.is_deleted():
                continue
            sharding = arr.sharding
            shard = sharding.shard_shape(arr.shape)
            per_device = int(arr.dtype.itemsize) * _count(shard)
            devices = len(sharding.device_set)
        except Exception:
            continue
        found.append(
            LiveArray(
                shape=tuple(arr.shape),
                dtype=str(arr.dtype),
                sharding=_sharding_text(sharding),
                bytes_per_device=per_device,
                devices=devices,
                names=tuple(names.get(id(arr), ())),
            )
        )
    found.sort(key=lambda a: (-a.bytes_per_device, a.names, a.shape))
    return LiveArrays(tuple(found))


def _count(shape: tuple[int, ...]) -> int:
    total = 1
    for n in shape:
        total *= int(n)
    return total


def _sharding_text(sharding: Any) -> str:
    spec = getattr(sharding, "spec", None)
    if spec is not None:
        return f"{type(sharding).__name__}{tuple(spec)}"
    return type(sharding).__name__

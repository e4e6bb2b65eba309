"""Where one breakpoint hit ran: its mesh position, its device and its ``vmap`` element.

A breakpoint builds one :class:`ShardPlace` per hit and passes it to the backend as data;
its label (``CPU 3 (x=3), vmap element 2``) is written here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PMAP_AXIS_PREFIX = "_"
"""JAX's own axis names (``pmap``'s ``_internal_pmap_axis_name``) start with it."""


@dataclass(frozen=True)
class ShardPlace:
    """A hit's mesh position (axis name, index), device name (``CPU 3``) and ``vmap`` element."""

    position: tuple[tuple[str, int], ...] = ()
    device: str | None = None
    element: int | None = None

    @property
    def where(self) -> str:
        """The mesh position as ``x=3, y=1`` (``pmap index 3`` for ``pmap``), else ``""``."""
        return ", ".join(
            f"pmap index {i}" if name.startswith(PMAP_AXIS_PREFIX) else f"{name}={i}"
            for name, i in self.position
        )

    @property
    def label(self) -> str:
        """``CPU 3 (x=3), vmap element 2``: the device, its position, the element, as known."""
        where = self.where
        text = f"{self.device} ({where})" if self.device and where else self.device or where
        element = f"vmap element {self.element}" if self.element is not None else ""
        return ", ".join(part for part in (text, element) if part)

    @property
    def order(self) -> tuple[Any, ...]:
        """Mesh position first, then ``vmap`` element: the same order whatever the arrival."""
        return (tuple(i for _, i in self.position), -1 if self.element is None else self.element)

    def with_element(self, element: int) -> ShardPlace:
        """The same place, at ``vmap`` element ``element``."""
        return ShardPlace(self.position, self.device, element)


def device_name(device: Any) -> str:
    """``CPU 3``: a device's platform and id, as every label shows it."""
    return f"{device.platform.upper()} {device.id}"

"""The memory map a notebook shows by default: one standalone ``text/html`` output.

The map's only question to the kernel is a leaf's sharding diagram; every leaf's diagram is
computed when the output is made and carried in it, so the map needs no widget and draws the
same view after a save, a restart or a reload. A map whose diagrams exceed ``BUDGET`` bytes of
JSON is shown as the live widget instead, which asks for each diagram when it is clicked.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, carried_map
from jaxdbg_widgets.memory.kind import MEMORY_MAP
from jaxdbg_widgets.memory.model import MemoryLayout

BUDGET = 1 << 20


def standalone_map(memory: MemoryLayout) -> StandaloneOutput | None:
    """The map as text and standalone HTML, or ``None`` when its leaf diagrams exceed ``BUDGET``."""
    return carried_map(memory, MEMORY_MAP, BUDGET)

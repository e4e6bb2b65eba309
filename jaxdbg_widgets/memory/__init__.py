"""The memory layer: bytes per device and per leaf, with text, HTML and widget renderers."""

from jaxdbg_widgets.memory.api import memory_map
from jaxdbg_widgets.memory.display import MemoryMap

__all__ = ["MemoryMap", "memory_map"]

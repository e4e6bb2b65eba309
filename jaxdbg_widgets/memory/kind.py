"""The memory map's kind: a click picks a leaf, whose sharding diagram the map then draws; a
device can be picked too, to list its leaves."""

from __future__ import annotations

from jaxdbg_widgets._map_kind import MapKind
from jaxdbg_widgets.memory.html import html_from_view
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.text import render_text
from jaxdbg_widgets.memory.view import memory_view


def _leaf_count(memory: MemoryLayout) -> int:
    return len(memory.leaves)


MEMORY_MAP = MapKind(
    name="memory",
    pick="leaf",
    count=_leaf_count,
    diagram=leaf_diagram,
    view=memory_view,
    html_from_view=html_from_view,
    text=render_text,
    state={"device": -1},
)

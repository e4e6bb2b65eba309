"""The memory map a notebook shows by default: one standalone ``text/html`` output.

The map's only question to the kernel is a leaf's sharding diagram; every leaf's diagram is
computed when the output is made and carried in it, so the map needs no widget and draws the
same view after a save, a restart or a reload. A map whose diagrams exceed ``BUDGET`` bytes of
JSON is shown as the live widget instead, which asks for each diagram when it is clicked.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, carried_map
from jaxdbg_widgets.memory.html import html_from_view
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.text import render_text
from jaxdbg_widgets.memory.view import memory_view

BUDGET = 1 << 20


def standalone_map(memory: MemoryLayout) -> StandaloneOutput | None:
    """The map as text and standalone HTML, or ``None`` when its leaf diagrams exceed ``BUDGET``."""
    return carried_map(
        memory,
        name="memory",
        pick="leaf",
        count=len(memory.leaves),
        diagram=leaf_diagram,
        view=memory_view,
        html_from_view=html_from_view,
        text=render_text,
        budget=BUDGET,
        state={"device": -1},
    )

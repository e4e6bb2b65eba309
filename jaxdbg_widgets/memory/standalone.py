"""The memory map a notebook shows by default: one standalone ``text/html`` output.

The map's only question to the kernel is a leaf's sharding diagram; every leaf's diagram is
computed when the output is made and carried in it, so the map needs no widget and draws the
same view after a save, a restart or a reload. A map whose diagrams exceed ``BUDGET`` bytes of
JSON is shown as the live widget instead, which asks for each diagram when it is clicked.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, carried_answers, standalone_html
from jaxdbg_widgets.memory.html import html_from_view
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.text import render_text
from jaxdbg_widgets.memory.view import memory_view

BUDGET = 1 << 20


def standalone_map(memory: MemoryLayout) -> StandaloneOutput | None:
    """The map as text and standalone HTML, or ``None`` when its leaf diagrams exceed ``BUDGET``."""
    diagrams = carried_answers(len(memory.leaves), lambda n: leaf_diagram(memory, n), BUDGET)
    if diagrams is None:
        return None
    view = memory_view(memory)
    html = standalone_html(
        module="memory.js",
        css=("sharding.css", "memory.css"),
        state={"view": view, "device": -1, "leaf": -1, "leaf_view": {}},
        static_html=html_from_view(view),
        derived={"leaf": ("leaf_view", diagrams)},
    )
    return StandaloneOutput(render_text(memory), html)

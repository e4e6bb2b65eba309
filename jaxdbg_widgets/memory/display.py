"""``MemoryMap``: the memory model with the hooks that show it as text, HTML or a widget.

The model (:class:`~jaxdbg_widgets.memory.model.MemoryLayout`) and the renderers import no
display hook; this thin subclass is the one module that knows them all, so no module imports one
that imports it back.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._display import MapDisplay
from jaxdbg_widgets.memory.kind import MEMORY_MAP
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.standalone import standalone_map
from jaxdbg_widgets.memory.text import text_renderable


class MemoryMap(MapDisplay, MemoryLayout):
    """Bytes per device and per leaf; a widget in a notebook, static HTML when saved, text in a
    terminal (``print``, ``rich.print``)."""

    kind = MEMORY_MAP
    standalone = standalone_map
    text_renderable = text_renderable

    def widget(self) -> Any:
        """The interactive widget for this map (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.memory.widget import MemoryWidget

        return MemoryWidget(self)

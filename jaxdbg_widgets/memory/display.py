"""``MemoryMap``: the memory model with the hooks that show it as text, HTML or a widget.

The model (:class:`~jaxdbg_widgets.memory.model.MemoryLayout`) and the renderers import no
display hook; this thin subclass is the one module that knows them all, so no module imports one
that imports it back.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._map_display import MapDisplay
from jaxdbg_widgets._standalone_html import StandaloneOutput
from jaxdbg_widgets.memory.html import render_html
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.standalone import standalone_map
from jaxdbg_widgets.memory.text import render_text, text_renderable


class MemoryMap(MapDisplay, MemoryLayout):
    """Bytes per device and per leaf; a widget in a notebook, static HTML when saved, text in a
    terminal (``print``, ``rich.print``)."""

    def to_text(self, *, use_color: bool = False) -> str:
        return render_text(self, use_color=use_color)

    def to_html(self) -> str:
        return render_html(self)

    def widget(self) -> Any:
        """The interactive widget for this map (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.memory.widget import MemoryWidget

        return MemoryWidget(self)

    def standalone(self) -> StandaloneOutput | None:
        """The kernel-free output, or ``None`` when its diagrams are too many to carry."""
        return standalone_map(self)

    def text_renderable(self) -> Any:
        """The map for ``rich``."""
        return text_renderable(self)

"""``MemoryMap``: the memory model with the hooks that show it as text, HTML or a widget.

The model (:class:`~jaxdbg_widgets.memory.model.MemoryLayout`) and the renderers import no
display hook; this thin subclass is the one module that knows them all, so no module imports one
that imports it back.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.memory.html import render_html
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.text import render_text, text_renderable


class MemoryMap(MemoryLayout):
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

    def __rich__(self) -> Any:
        return text_renderable(self)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """In a notebook, the standalone map (the widget when its diagrams are too many to
        carry); HTML and text elsewhere."""
        from jaxdbg_widgets.memory.standalone import standalone_map
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            standalone = standalone_map(self)
            if standalone is not None:
                return standalone._repr_mimebundle_(**kwargs)
            bundle = self.widget()._repr_mimebundle_(**kwargs)
            if bundle is not None:
                return bundle[0]
        return {"text/plain": self.to_text(), "text/html": self.to_html()}

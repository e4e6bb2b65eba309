"""``CommunicationMap``: the communication model with the hooks that show it as text, HTML or a
widget.

The model (:class:`~jaxdbg_widgets.comms.model.CommunicationModel`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets.comms.html import render_html
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.text import render_text, text_renderable


@dataclass(frozen=True, repr=False)
class CommunicationMap(CommunicationModel):
    """Every collective of a compiled program; in a notebook a kernel-free view (or the widget),
    static HTML when saved, text in a terminal (``print``, ``rich.print``)."""

    def to_text(self, *, use_color: bool = False) -> str:
        """The map as terminal text."""
        return render_text(self, use_color=use_color)

    def to_html(self) -> str:
        """The map as static HTML."""
        return render_html(self)

    def widget(self) -> Any:
        """The interactive widget for this map (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.comms.widget import CommunicationWidget

        return CommunicationWidget(self)

    def __rich__(self) -> Any:
        return text_renderable(self)

    def __repr__(self) -> str:
        return f"CommunicationMap({self.name}: {len(self.collectives)} collectives)"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """In a notebook, the standalone map (the widget when its diagrams are too many to
        carry); HTML and text elsewhere."""
        from jaxdbg_widgets.comms.standalone import standalone_map
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            standalone = standalone_map(self)
            if standalone is not None:
                return standalone._repr_mimebundle_(**kwargs)
            bundle = self.widget()._repr_mimebundle_(**kwargs)
            if bundle is not None:
                return bundle[0]
        return {"text/plain": self.to_text(), "text/html": self.to_html()}

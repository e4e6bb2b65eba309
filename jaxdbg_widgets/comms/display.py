"""``CommunicationMap``: the communication model with the hooks that show it as text, HTML or a
widget.

The model (:class:`~jaxdbg_widgets.comms.model.CommunicationModel`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets._display import MapDisplay
from jaxdbg_widgets.comms.kind import COMMS_MAP
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.standalone import standalone_map
from jaxdbg_widgets.comms.text import text_renderable


@dataclass(frozen=True, repr=False)
class CommunicationMap(MapDisplay, CommunicationModel):
    """Every collective of a compiled program; in a notebook a kernel-free view (or the widget),
    static HTML when saved, text in a terminal (``print``, ``rich.print``)."""

    kind = COMMS_MAP
    standalone = standalone_map
    text_renderable = text_renderable

    def widget(self) -> Any:
        """The interactive widget for this map (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.comms.widget import CommunicationWidget

        return CommunicationWidget(self)

    def __repr__(self) -> str:
        return f"CommunicationMap({self.name}: {len(self.collectives)} collectives)"

"""The interactive communication map: an anywidget drawing the view model, with the static HTML
as its fallback in the output bundle. Selecting a line asks Python for its collectives' operand
and result sharding diagrams."""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._twin_widget import MapWidget
from jaxdbg_widgets.comms.diagrams import line_diagrams
from jaxdbg_widgets.comms.html import html_from_view
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.view import comms_view


class CommunicationWidget(MapWidget):
    """Annotated source, per-device bytes heatmap, and a selected line's sharding diagrams.

    ``line`` is the selected line's position in ``view["lines"]`` (-1: none); its diagrams
    land in ``line_view``.
    """

    _esm = inlined_module("comms.js")
    _css = stylesheet("widgets.css", "sharding.css", "comms.css")

    view = traitlets.Dict().tag(sync=True)
    render_html = staticmethod(html_from_view)
    line = traitlets.Int(-1).tag(sync=True)
    line_view = traitlets.Dict().tag(sync=True)

    def __init__(self, comms: CommunicationModel) -> None:
        self._comms = comms
        super().__init__(view=comms_view(comms))

    @property
    def comms(self) -> CommunicationModel:
        return self._comms

    @traitlets.validate("line")
    def _known_line(self, proposal: dict[str, Any]) -> int:
        return self._position(proposal, len(self._comms.lines), "line")

    @traitlets.observe("line")
    def _draw_line(self, change: dict[str, Any]) -> None:
        self.line_view = line_diagrams(self._comms, change["new"]) if change["new"] >= 0 else {}

    def __repr__(self) -> str:
        return f"CommunicationWidget({self._comms.name}: {'; '.join(self.view['summary'][:2])})"

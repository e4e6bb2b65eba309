"""The interactive communication map: an anywidget drawing the view model, with the static HTML
as its fallback in the output bundle. Selecting a line asks Python for its collectives' operand
and result sharding diagrams."""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._twin_widget import MapWidget
from jaxdbg_widgets.comms.kind import COMMS_MAP


class CommunicationWidget(MapWidget):
    """Annotated source, per-device bytes heatmap, and a selected line's sharding diagrams.

    ``line`` is the selected line's position in ``view["lines"]`` (-1: none); its diagrams
    land in ``line_view``.
    """

    kind = COMMS_MAP
    line = traitlets.Int(-1).tag(sync=True)
    line_view = traitlets.Dict().tag(sync=True)

    @traitlets.validate("line")
    def _known_line(self, proposal: dict[str, Any]) -> int:
        return self._picked(proposal)

    def __repr__(self) -> str:
        return f"CommunicationWidget({self._model.name}: {'; '.join(self.view['summary'][:2])})"

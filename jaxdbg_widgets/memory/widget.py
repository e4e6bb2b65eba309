"""The interactive memory map: an anywidget drawing the view model, with the static HTML as its
fallback in the output bundle. Clicking a leaf asks Python for that leaf's sharding diagram."""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._twin_widget import MapWidget
from jaxdbg_widgets.memory.kind import MEMORY_MAP


class MemoryWidget(MapWidget):
    """Heatmap of bytes per device, hover totals, a device's leaves, a leaf's sharding diagram.

    ``device`` is the selected device's position in ``view["devices"]`` (-1: none); ``leaf`` the
    selected leaf's position in ``view["leaves"]``, whose diagram lands in ``leaf_view``.
    """

    kind = MEMORY_MAP
    device = traitlets.Int(-1).tag(sync=True)
    leaf = traitlets.Int(-1).tag(sync=True)
    leaf_view = traitlets.Dict().tag(sync=True)

    @traitlets.validate("device")
    def _known_device(self, proposal: dict[str, Any]) -> int:
        return self._position(proposal, len(self._model.devices), "device")

    @traitlets.validate("leaf")
    def _known_leaf(self, proposal: dict[str, Any]) -> int:
        return self._picked(proposal)

    def __repr__(self) -> str:
        return f"MemoryWidget({self._model.source}: {', '.join(self.view['summary'])})"

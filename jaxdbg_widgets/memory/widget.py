"""The interactive memory map: an anywidget drawing the view model, with the static HTML as its
fallback in the output bundle. Clicking a leaf asks Python for that leaf's sharding diagram."""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._twin_widget import MapWidget
from jaxdbg_widgets.memory.html import html_from_view
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.schema import LeafView
from jaxdbg_widgets.memory.view import memory_view


class MemoryWidget(MapWidget):
    """Heatmap of bytes per device, hover totals, a device's leaves, a leaf's sharding diagram.

    ``device`` is the selected device's position in ``view["devices"]`` (-1: none); ``leaf`` the
    selected leaf's position in ``view["leaves"]``, whose diagram lands in ``leaf_view``.
    """

    _esm = inlined_module("memory.js")
    _css = stylesheet("widgets.css", "sharding.css", "memory.css")

    view = traitlets.Dict().tag(sync=True)
    render_html = staticmethod(html_from_view)
    device = traitlets.Int(-1).tag(sync=True)
    leaf = traitlets.Int(-1).tag(sync=True)
    leaf_view = traitlets.Dict().tag(sync=True)

    def __init__(self, memory: MemoryLayout) -> None:
        self._memory = memory
        super().__init__(view=memory_view(memory))

    @property
    def memory(self) -> MemoryLayout:
        return self._memory

    @traitlets.validate("device")
    def _known_device(self, proposal: dict[str, Any]) -> int:
        return self._position(proposal, len(self._memory.devices), "device")

    @traitlets.validate("leaf")
    def _known_leaf(self, proposal: dict[str, Any]) -> int:
        return self._position(proposal, len(self._memory.leaves), "leaf")

    @traitlets.observe("leaf")
    def _draw_leaf(self, change: dict[str, Any]) -> None:
        self.leaf_view = self.leaf_diagram(change["new"]) if change["new"] >= 0 else {}

    def leaf_diagram(self, position: int) -> LeafView:
        """The sharding view model of one leaf, tagged with its position."""
        return leaf_diagram(self._memory, position)

    def __repr__(self) -> str:
        return f"MemoryWidget({self._memory.source}: {', '.join(self.view['summary'])})"

"""The interactive memory map: an anywidget drawing the view model, with the static HTML as its
fallback in the output bundle. Clicking a leaf asks Python for that leaf's sharding diagram."""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._assets import asset, inlined_module
from jaxdbg_widgets._twin_widget import TwinWidget
from jaxdbg_widgets.memory.html import html_from_view
from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.schema import LeafView
from jaxdbg_widgets.memory.view import memory_view


class MemoryWidget(TwinWidget):
    """Heatmap of bytes per device, hover totals, a device's leaves, a leaf's sharding diagram.

    ``device`` is the selected device's position in ``view["devices"]`` (-1: none); ``leaf`` the
    selected leaf's position in ``view["leaves"]``, whose diagram lands in ``leaf_view``.
    """

    _esm = inlined_module("memory.js")
    _css = asset("sharding.css").read_text(encoding="utf-8") + asset("memory.css").read_text(
        encoding="utf-8"
    )

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
        value = proposal["value"]
        if not -1 <= value < len(self._memory.devices):
            raise traitlets.TraitError(f"no device at position {value} in this map")
        return value

    @traitlets.validate("leaf")
    def _known_leaf(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        if not -1 <= value < len(self._memory.leaves):
            raise traitlets.TraitError(f"no leaf at position {value} in this map")
        return value

    @traitlets.observe("leaf")
    def _draw_leaf(self, change: dict[str, Any]) -> None:
        self.leaf_view = self.leaf_diagram(change["new"]) if change["new"] >= 0 else {}

    def leaf_diagram(self, position: int) -> LeafView:
        """The sharding view model of one leaf, tagged with its position."""
        return leaf_diagram(self._memory, position)

    def __repr__(self) -> str:
        return f"MemoryWidget({self._memory.source}: {', '.join(self.view['summary'])})"

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "text/plain": repr(self)}, metadata  # whole, not cut at 110 characters

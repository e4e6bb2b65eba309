"""The interactive sharding widget: an anywidget drawing the view model, with the static HTML as
its fallback in the output bundle (shown where widgets cannot run: nbconvert, GitHub) and the
text diagram as its ``text/plain`` (front ends and exports that keep only text)."""

from __future__ import annotations

import dataclasses
from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._twin_widget import TwinWidget
from jaxdbg_widgets.sharding.html import html_from_view
from jaxdbg_widgets.sharding.layout import ShardingLayout, shape_and_sharding
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.text import render_text
from jaxdbg_widgets.sharding.view import layout_and_view


class ShardingWidget(TwinWidget):
    """Per-device grid with hover tooltips, click-to-highlight a device's shards, and zoom.

    ``selected`` holds the highlighted device ids (set by a click in the browser or from Python);
    ``zoom`` scales the grid.
    """

    _esm = inlined_module("sharding.js")
    _css = stylesheet("widgets.css", "sharding.css")

    view = traitlets.Dict().tag(sync=True)
    render_html = staticmethod(html_from_view)
    selected = traitlets.List(traitlets.Int()).tag(sync=True)
    zoom = traitlets.Float(1.0).tag(sync=True)

    def __init__(
        self, shape: Any, sharding: Any = None, *, dtype: Any = None, **options: Any
    ) -> None:
        """The widget of ``(shape, sharding)``, or of an array alone (its shape, sharding, dtype)."""
        self._options = RenderOptions(**options)
        self._layout, view = layout_and_view(shape, sharding, dtype=dtype, options=self._options)
        super().__init__(view=view)

    @classmethod
    def from_array(cls, arr: Any, **options: Any) -> ShardingWidget:
        """The widget for a ``jax.Array`` (its shape, sharding and dtype)."""
        shape, sharding, dtype = shape_and_sharding(arr, None, None)
        return cls(shape, sharding, dtype=dtype, **options)

    @property
    def layout(self) -> ShardingLayout:
        return self._layout

    @traitlets.validate("selected")
    def _known_devices(self, proposal: dict[str, Any]) -> list[int]:
        known = {d.id for d in self._layout.devices}
        unknown = [i for i in proposal["value"] if i not in known]
        if unknown:
            raise traitlets.TraitError(f"no device with id {unknown[0]} in this sharding")
        return proposal["value"]

    @traitlets.validate("zoom")
    def _positive_zoom(self, proposal: dict[str, Any]) -> float:
        if not proposal["value"] > 0:
            raise traitlets.TraitError(f"zoom must be positive, got {proposal['value']!r}")
        return proposal["value"]

    def __repr__(self) -> str:
        summary = ", ".join(self.view["summary"])
        return f"ShardingWidget({self._layout.kind}: {summary})"

    def to_text(self) -> str:
        """The text diagram of this widget's layout and options, without colour codes, as
        :func:`jaxdbg_widgets.sharding_text` gives it with ``use_color=False``."""
        return render_text(self._layout, dataclasses.replace(self._options, use_color=False))

    def _static_outputs(self) -> dict[str, str]:
        """The static HTML twin, and the text diagram as the text."""
        return {**super()._static_outputs(), "text/plain": self.to_text()}

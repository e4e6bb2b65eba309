"""The interactive pictures: an anywidget drawing the view model, with the static HTML as its
twin in the output bundle. Hovering asks the kernel for a cell's exact value; a slider asks for
another leading slice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._linked import Linkable
from jaxdbg_widgets._twin_widget import TwinWidget
from jaxdbg_widgets.pictures.html import html_from_view
from jaxdbg_widgets.pictures.model import PictureOptions, PictureSet, build_picture
from jaxdbg_widgets.pictures.schema import Probe
from jaxdbg_widgets.pictures.view import picture_view, pictures_view


class PicturesWidget(Linkable, TwinWidget):
    """Heatmaps with hover values, shard overlays whose click lights their devices, and
    sliders for leading axes; ``probe`` holds the kernel's answer to the last hovered cell."""

    _esm = inlined_module("pictures.js")
    _css = stylesheet("widgets.css", "pictures.css")

    view = traitlets.Dict().tag(sync=True)
    render_html = staticmethod(html_from_view)
    probe = traitlets.Dict().tag(sync=True)

    def __init__(self, pictures: PictureSet) -> None:
        self._pictures = list(pictures.pictures)
        self._options = pictures.options
        super().__init__(view=pictures_view(pictures))
        self.on_msg(self._handle)

    def _handle(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        try:
            if content.get("event") == "probe":
                self.probe = self.answer(content["picture"], content["panel"], content["index"])
            elif content.get("event") == "slide":
                self.slide(content["picture"], content["index"])
        except (KeyError, IndexError, TypeError, ValueError, LookupError):
            return  # a stale or malformed request from the page: nothing to answer

    def answer(self, picture: int, panel: int, cell: list[int]) -> Probe:
        """The exact value at full-resolution ``[row, col]`` of a panel of a picture."""
        shown = self._pictures[picture]
        row, col = cell
        index = shown.full_index(panel, row, col)
        return {
            "picture": picture,
            "panel": panel,
            "index": list(index),
            "text": shown.value_text(index),
        }

    def slide(self, picture: int, index: list[int]) -> None:
        """Show leading index ``index`` of a picture drawn with sliders."""
        shown = self._pictures[picture]
        if shown.leading != "sliders" or shown.source is None:
            raise ValueError("this picture has no sliders")
        options = _options_of(self._options, shown)
        redrawn = replace(
            build_picture(shown.source, shown.path, options, tuple(index)),
            shards=shown.shards,
            spec=shown.spec,
        )
        self._pictures[picture] = redrawn
        pictures = list(self.view["pictures"])
        pictures[picture] = picture_view(redrawn)
        self.view = {**self.view, "pictures": pictures}

    def __repr__(self) -> str:
        return "PicturesWidget(" + "; ".join(p["title"] for p in self.view["pictures"]) + ")"


def _options_of(options: PictureOptions, picture: Any) -> PictureOptions:
    """The options a picture was drawn with, its scale kept fixed across slices."""
    return replace(
        options,
        leading="sliders",
        cmap=picture.scale.cmap,
        vmin=picture.scale.vmin,
        vmax=picture.scale.vmax,
        complex_part=picture.part or options.complex_part,
    )

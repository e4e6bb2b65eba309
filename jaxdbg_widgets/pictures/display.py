"""``Pictures``: the picture model with the hooks that show it as text, HTML or a widget.

The model (:class:`~jaxdbg_widgets.pictures.model.PictureSet`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._display import LinkedDisplay
from jaxdbg_widgets.pictures.html import render_html
from jaxdbg_widgets.pictures.model import PictureSet
from jaxdbg_widgets.pictures.text import render_text


class Pictures(LinkedDisplay, PictureSet):
    """Pictures of arrays: a widget in a notebook, static HTML when saved, text in a terminal."""

    to_text = render_text
    to_html = render_html

    def widget(self) -> Any:
        """The interactive widget for these pictures (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.pictures.widget import PicturesWidget

        return PicturesWidget(self)

    def standalone(self) -> Any:
        """The standalone output linked to a new widget for these pictures."""
        from jaxdbg_widgets.pictures.standalone import standalone_pictures

        return standalone_pictures(self)

"""The pictures a notebook shows by default: one standalone ``text/html`` output, linked to a live
widget while the kernel that drew them runs.

The page alone draws the pictures, their shard boxes and every value the view carries; the
exact value of a reduced cell and another slider slice need the kernel, so the output draws over
the live widget while that kernel lives (``jaxdbg_widgets._linked``) and says where an answer is
missing after a restart. No output is a widget view, so nothing is "not found" after a reload.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.pictures.html import html_from_view
from jaxdbg_widgets.pictures.model import PictureSet
from jaxdbg_widgets.pictures.text import render_text
from jaxdbg_widgets.pictures.widget import PicturesWidget


def standalone_pictures(pictures: PictureSet) -> StandaloneOutput:
    """The pictures as text and standalone HTML, linked to a new live widget."""
    live = PicturesWidget(pictures)
    html = standalone_html(
        module="pictures.js",
        css=("widgets.css", "pictures.css"),
        state={"view": live.view, "probe": {}, "link": live.link},
        static_html=html_from_view(live.view),
        link=live.link,
    )
    return StandaloneOutput(render_text(pictures), html)

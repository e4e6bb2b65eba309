"""The sharding diagram a notebook shows by default: one standalone ``text/html`` output.

The diagram's JavaScript sends nothing to the kernel (selection and zoom live in the page), so
it needs no widget: the output draws the same view after a save, a restart or a reload.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.sharding.html import html_from_view
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.text import render_text
from jaxdbg_widgets.sharding.view import layout_and_view


def standalone_diagram(
    shape: Sequence[int], sharding: Any, *, dtype: Any = None, options: RenderOptions
) -> StandaloneOutput:
    """The diagram of ``shape`` under ``sharding`` as text and standalone HTML."""
    layout, view = layout_and_view(shape, sharding, dtype=dtype, options=options)
    html = standalone_html(
        module="sharding.js",
        css=("widgets.css", "sharding.css"),
        state={"view": view, "selected": [], "zoom": 1.0},
        static_html=html_from_view(view),
    )
    text = render_text(layout, dataclasses.replace(options, use_color=False))
    return StandaloneOutput(text, html)

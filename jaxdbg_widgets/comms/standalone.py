"""The communication map a notebook shows by default: one standalone ``text/html`` output.

The map's only question to the kernel is a line's sharding diagrams; every line's diagrams are
computed when the output is made and carried in it, so the map needs no widget and draws the
same view after a save, a restart or a reload. A map whose diagrams exceed ``BUDGET`` bytes of
JSON is shown as the live widget instead, which asks for a line's diagrams when it is picked.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, carried_map
from jaxdbg_widgets.comms.diagrams import line_diagrams
from jaxdbg_widgets.comms.html import html_from_view
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.text import render_text
from jaxdbg_widgets.comms.view import comms_view

BUDGET = 1 << 20


def standalone_map(comms: CommunicationModel) -> StandaloneOutput | None:
    """The map as text and standalone HTML, or ``None`` when its diagrams exceed ``BUDGET``."""
    return carried_map(
        comms,
        name="comms",
        pick="line",
        count=len(comms.lines),
        diagram=line_diagrams,
        view=comms_view,
        html_from_view=html_from_view,
        text=render_text,
        budget=BUDGET,
    )

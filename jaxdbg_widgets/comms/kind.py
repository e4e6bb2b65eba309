"""The communication map's kind: a click picks a source line, whose collectives' operand and
result sharding diagrams the map then draws."""

from __future__ import annotations

from jaxdbg_widgets._map_kind import MapKind
from jaxdbg_widgets.comms.diagrams import line_diagrams
from jaxdbg_widgets.comms.html import html_from_view
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.text import render_text
from jaxdbg_widgets.comms.view import comms_view


def _line_count(comms: CommunicationModel) -> int:
    return len(comms.lines)


COMMS_MAP = MapKind(
    name="comms",
    pick="line",
    count=_line_count,
    diagram=line_diagrams,
    view=comms_view,
    html_from_view=html_from_view,
    text=render_text,
)

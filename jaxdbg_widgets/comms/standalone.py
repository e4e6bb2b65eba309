"""The communication map a notebook shows by default: one standalone ``text/html`` output.

The map's only question to the kernel is a line's sharding diagrams; every line's diagrams are
computed when the output is made and carried in it, so the map needs no widget and draws the
same view after a save, a restart or a reload. A map whose diagrams exceed ``BUDGET`` bytes of
JSON is shown as the live widget instead, which asks for a line's diagrams when it is picked.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, carried_map
from jaxdbg_widgets.comms.kind import COMMS_MAP
from jaxdbg_widgets.comms.model import CommunicationModel

BUDGET = 1 << 20


def standalone_map(comms: CommunicationModel) -> StandaloneOutput | None:
    """The map as text and standalone HTML, or ``None`` when its diagrams exceed ``BUDGET``."""
    return carried_map(comms, COMMS_MAP, BUDGET)

"""Communication: the collectives XLA chose for a compiled program, per source line and device."""

from jaxdbg_widgets.comms.api import communication_map, communication_map_from_text
from jaxdbg_widgets.comms.display import CommunicationMap

__all__ = ["CommunicationMap", "communication_map", "communication_map_from_text"]

"""The stand-in devices and grid sharding under the names the memory-map tests import."""

from jaxdbg_widgets.sharding.stand_in import GridSharding
from jaxdbg_widgets.sharding.stand_in import StandInDevice as MockDevice

__all__ = ["GridSharding", "MockDevice"]

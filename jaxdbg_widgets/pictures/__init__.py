"""Pictures of arrays: ``show(x)`` draws every array leaf as a colour-mapped grid."""

from jaxdbg_widgets.pictures.api import show

__all__ = ["show"]

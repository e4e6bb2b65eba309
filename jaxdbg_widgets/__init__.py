"""jaxdbg-widgets: notebook-native debugging for JAX.

This module is the public surface only; everything lives in the layer packages
(``core``, ``debugger``, ``sharding``, ``notebook``).
"""

from jaxdbg_widgets._version import __version__

__all__ = ["__version__"]

"""Entry point for ``%load_ext jaxdbg``: delegates to :mod:`jaxdbg_widgets.notebook.extension`."""

from jaxdbg_widgets.notebook.extension import load_ipython_extension, unload_ipython_extension

__all__ = ["load_ipython_extension", "unload_ipython_extension"]

"""``%load_ext jaxdbg`` / ``%unload_ext jaxdbg``: install every feature and undo them exactly."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._version import __version__
from jaxdbg_widgets.notebook.features import FEATURES, Undo

_undos: list[Undo] | None = None


def is_loaded() -> bool:
    """Whether the extension is active in this process."""
    return _undos is not None


def load_ipython_extension(ip: Any) -> None:
    """Install all features; a second load while loaded does nothing."""
    global _undos
    if _undos is not None:
        print(f"jaxdbg {__version__} is already loaded")
        return
    undos: list[Undo] = []
    try:
        for _name, install in FEATURES:
            undos.append(install(ip))
    except BaseException:
        _run_undos(undos)
        raise
    _undos = undos
    print(
        f"jaxdbg {__version__} loaded: widget debugger, sharding views, print routing (%jaxdbg help)"
    )


def unload_ipython_extension(ip: Any) -> None:
    """Undo every feature in reverse order, restoring what loading changed."""
    global _undos
    if _undos is None:
        return
    undos, _undos = _undos, None
    _run_undos(undos)


def _run_undos(undos: list[Undo]) -> None:
    for undo in reversed(undos):
        undo()

"""``%load_ext jaxdbg`` / ``%unload_ext jaxdbg``: install every feature and undo them exactly.

Loading never fails: the private IPython/ipykernel names are checked first (their results go
to :mod:`jaxdbg_widgets._capabilities`), and a feature whose install raises is left off. The
load message names, in one line, whatever is degraded and why. Unloading runs every undo even
when one raises, and names the ones that failed in one line.
"""

from __future__ import annotations

import sys
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import checks
from jaxdbg_widgets._version import __version__
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.notebook.features import FEATURES, Undo

_undos: list[tuple[str, Undo]] | None = None
_failed: dict[str, str] = {}


def is_loaded() -> bool:
    """Whether the extension is active in this process."""
    return _undos is not None


def load_ipython_extension(ip: Any) -> None:
    """Install all features; a second load while loaded does nothing."""
    global _undos
    if _undos is not None:
        print(f"jaxdbg {__version__} is already loaded")
        return
    checks.check_capabilities(ip)
    _failed.clear()
    undos: list[tuple[str, Undo]] = []
    for name, install in FEATURES:
        try:
            undos.append((name, install(ip)))
        except Exception as error:
            _failed[name] = one_line(error)
    _undos = undos
    print(load_message())


def load_message() -> str:
    """``jaxdbg X loaded: ...``, plus what is degraded and why, in one line."""
    message = (
        f"jaxdbg {__version__} loaded: widget debugger, sharding views, print routing "
        "(%jaxdbg help)"
    )
    off = [f"{c.feature} ({c.library} {c.name}: {c.reason})" for c in _capabilities.degraded()]
    off += [f"{name} ({reason})" for name, reason in _failed.items()]
    return f"{message}; degraded: {'; '.join(off)}" if off else message


def unload_ipython_extension(ip: Any) -> None:
    """Undo every feature in reverse order; one that raises does not stop the others.

    The features whose undo failed are named, with the reason, in one line on stderr.
    """
    global _undos
    if _undos is None:
        return
    undos, _undos = _undos, None
    failed = []
    for name, undo in reversed(undos):
        try:
            undo()
        except Exception as error:
            failed.append(f"{name} ({one_line(error)})")
    if failed:
        print(f"jaxdbg unloaded; could not undo: {'; '.join(failed)}", file=sys.stderr)

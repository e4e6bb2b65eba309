"""The running IPython shell and ipykernel kernel: the package's one "are we in a kernel" check."""

from __future__ import annotations

import sys
from typing import Any


def running_shell() -> Any | None:
    """The running IPython shell, or ``None`` (outside IPython, or before it was imported)."""
    module = sys.modules.get("IPython")
    get_ipython = getattr(module, "get_ipython", None)
    return get_ipython() if get_ipython is not None else None


def running_kernel() -> Any | None:
    """The running ipykernel's kernel object, or ``None`` outside a kernel."""
    return getattr(running_shell(), "kernel", None)

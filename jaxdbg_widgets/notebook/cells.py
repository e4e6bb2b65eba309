"""Which notebook cell is running now, and how to name the file a cell was compiled from.

The print log tags each print with the cell that produced it. Hooks installed by
:mod:`jaxdbg_widgets.notebook.routing` keep :func:`current_cell` up to date; outside IPython it
stays ``None`` and file names are shown as their base names.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

_current: int | None = None


def current_cell() -> int | None:
    """The execution count of the cell running now, or ``None`` outside a notebook cell."""
    return _current


def set_current_cell(count: int | None) -> None:
    """Record the cell now running (called from IPython's ``pre_run_cell``/``post_run_cell``)."""
    global _current
    _current = count


@functools.lru_cache(maxsize=4096)
def describe_file(filename: str) -> str:
    """``In[3]`` for a file IPython compiled from cell 3, else the file's base name.

    Cached: IPython names a cell's file when it compiles the cell, before any print from it.
    """
    shell = _running_shell()
    compiler = getattr(shell, "compile", None)
    format_code_name = getattr(compiler, "format_code_name", None)
    if format_code_name is not None:
        named = format_code_name(filename)
        if named is not None:
            return named[1]
    return os.path.basename(filename) or filename


def _running_shell() -> Any | None:
    ipython_module = sys.modules.get("IPython")
    return ipython_module.get_ipython() if ipython_module is not None else None

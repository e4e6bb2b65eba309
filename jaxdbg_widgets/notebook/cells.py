"""Which notebook cell is running now, and how to name the file a cell was compiled from.

The print log tags each print with the cell that produced it. Hooks installed by
:mod:`jaxdbg_widgets.notebook.routing` keep :func:`current_cell` up to date; outside IPython it
stays ``None`` and file names are shown as their base names.
"""

from __future__ import annotations

import functools

from jaxdbg_widgets._kernel import cell_files

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
    return cell_files.short_name(filename)

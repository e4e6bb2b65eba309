"""Which notebook cell is running now, and how to name the file a cell was compiled from.

The print log tags each print with the cell that produced it. Hooks installed by
:mod:`jaxdbg_widgets.notebook.routing` keep :func:`current_cell` up to date; outside IPython it
stays ``None`` and file names are shown as their base names.
"""

from __future__ import annotations

import os
import sys

from jaxdbg_widgets._kernel import cell_files

_current: int | None = None


def current_cell() -> int | None:
    """The execution count of the cell running now, or ``None`` outside a notebook cell."""
    return _current


def set_current_cell(count: int | None) -> None:
    """Record the cell now running (called from IPython's ``pre_run_cell``/``post_run_cell``)."""
    global _current
    _current = count


class FileNames:
    """Names a print's file as every view does (``In[3]``, else its base name), as named now.

    A cell run again gives its file a new number. The names this package keeps, and base
    names, change only with :func:`cell_files.changes`, so they are kept until it moves; a
    name only IPython knows (a cell run before the extension was loaded) is asked each time.
    Names are interned, so a log's many prints from one file hold one string.
    """

    def __init__(self) -> None:
        self._kept: dict[str, tuple[int, str]] = {}

    def __call__(self, filename: str) -> str:
        changes = cell_files.changes()
        kept = self._kept.get(filename)
        if kept is not None and kept[0] == changes:
            return kept[1]
        known = cell_files.known_cell_name(filename)
        if known is None and (asked := cell_files.ipython_cell_name(filename)) is not None:
            return sys.intern(asked)
        name = sys.intern(known or os.path.basename(filename) or filename)
        self._kept[filename] = (changes, name)
        return name

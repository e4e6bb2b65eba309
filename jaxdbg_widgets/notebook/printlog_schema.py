"""The print log widget's JSON, declared once: the rows and counts the kernel sends and the
filter the browser sets.

``js/schema/printlog.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/printlog.js`` imports, so TypeScript's checker holds it to them.
"""

from __future__ import annotations

from typing import TypedDict

from jaxdbg_widgets.pictures.schema import PicturesView

__all__ = ["NoPictures", "PrintLogModel", "PrintPictures", "PrintRow", "PrintStats"]


class PrintRow(TypedDict):
    """One print as the table shows it; ``cell`` is None outside a cell, ``process`` (the JAX
    process that printed) None outside a multi-process job."""

    index: int
    cell: int | None
    time: str
    site: str
    text: str
    values: str
    arrays: int
    process: int | None


class PrintStats(TypedDict):
    """How many prints were seen, kept, dropped and matched, and the log's capacity."""

    seen: int
    kept: int
    dropped: int
    matched: int
    capacity: int


class PrintPictures(TypedDict):
    """The pictures of the arrays one print carried; ``index`` is the print's."""

    index: int
    view: PicturesView


class NoPictures(TypedDict):
    """No print expanded: an empty object."""


class PrintLogModel(TypedDict):
    """The widget's synced state: the newest matching rows, the counts, the filter, the limit,
    the expanded print (-1: none), its pictures, and the key its saved output links to it by
    (``js/live_link.js``)."""

    rows: list[PrintRow]
    stats: PrintStats
    query: str
    limit: int
    expanded: int
    pictures: PrintPictures | NoPictures
    link: str

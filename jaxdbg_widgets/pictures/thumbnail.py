"""Small pictures for other views: a locals table's thumbnail and a ``p`` result's picture.

Both are plain JSON built by the picture view, small enough for the debugger's byte budget; a
value that is not a drawable array gives None.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.pictures.model import PictureOptions, build_picture, worth_a_picture
from jaxdbg_widgets.pictures.schema import PictureView
from jaxdbg_widgets.pictures.view import picture_view

THUMB_CELLS = 576  # 24 x 24 for a square array
PICTURE_CELLS = 4096  # 64 x 64: a few KB of PNG


def thumbnail(value: Any) -> str | None:
    """The first panel of an array worth a picture as a tiny PNG ``data:`` URI, or None."""
    picture = _picture(value, PictureOptions(budget=THUMB_CELLS, max_facets=1))
    if picture is None or not picture["panels"]:
        return None
    return picture["panels"][0]["png"]


def small_picture(value: Any, path: str = "") -> PictureView | None:
    """The picture of an array at ``PICTURE_CELLS`` cells and at most four facets, or None
    (for a value that is no array, a 0-d one, or one too small to be worth a picture)."""
    return _picture(value, PictureOptions(budget=PICTURE_CELLS, max_facets=4), path)


def _picture(value: Any, options: PictureOptions, path: str = "") -> PictureView | None:
    if not worth_a_picture(value):
        return None
    try:
        view = picture_view(build_picture(value, path, options))
    except Exception:  # an unreadable value (a deleted buffer, an odd dtype) draws no picture
        return None
    view["panels"] = [dict(p, values=None) for p in view["panels"]]  # hover values stay home
    return view

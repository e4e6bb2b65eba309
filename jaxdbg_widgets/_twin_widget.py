"""The base of every widget here: each display also carries the widget's static HTML twin.

Saved notebooks, nbconvert and front ends that cannot draw widgets show the ``text/html``
twin; a front end with the widget manager draws the live widget from the same bundle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import anywidget
import traitlets


class TwinWidget(anywidget.AnyWidget):
    """An anywidget drawing a ``view`` dict; its display bundle adds ``render_html(view)``.

    Subclasses define the synced ``view`` trait and set ``render_html`` to their static
    renderer (a ``staticmethod``).
    """

    render_html: ClassVar[Callable[[dict[str, Any]], str]]

    def to_html(self) -> str:
        """The static twin of this widget: its current view, rendered without JavaScript."""
        return type(self).render_html(self.view)

    def _static_outputs(self) -> dict[str, str]:
        """The outputs the display bundle adds to the widget's own, keyed by MIME type."""
        return {"text/html": self.to_html()}

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, **self._static_outputs()}, metadata


class MapWidget(TwinWidget):
    """A map's widget: its display's text is its whole ``repr`` (anywidget cuts it at 110
    characters), and a picked position must name one of the map's items or none (-1)."""

    def _static_outputs(self) -> dict[str, str]:
        """The static HTML twin, and the whole ``repr`` as the text."""
        return {**super()._static_outputs(), "text/plain": repr(self)}

    @staticmethod
    def _position(proposal: dict[str, Any], count: int, what: str) -> int:
        """The proposed position when it names one of ``count`` items or none; else an error."""
        value = proposal["value"]
        if not -1 <= value < count:
            raise traitlets.TraitError(f"no {what} at position {value} in this map")
        return value

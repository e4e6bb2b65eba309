"""The base of every widget here: each display also carries the widget's static HTML twin.

Saved notebooks, nbconvert and front ends that cannot draw widgets show the ``text/html``
twin; a front end with the widget manager draws the live widget from the same bundle.
"""

from __future__ import annotations

from typing import Any

import anywidget


class TwinWidget(anywidget.AnyWidget):
    """An anywidget whose display bundle adds ``to_html()`` as ``text/html``."""

    def to_html(self) -> str:
        """The static rendering of the widget's current state."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "text/html": self.to_html()}, metadata

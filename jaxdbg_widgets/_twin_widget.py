"""The base of every widget here: each display also carries the widget's static HTML twin.

Saved notebooks, nbconvert and front ends that cannot draw widgets show the ``text/html``
twin; a front end with the widget manager draws the live widget from the same bundle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import anywidget
import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._map_kind import MapKind


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
    """A map's widget, drawn by its ``kind``: picking an item fills ``{pick}_view`` with its
    diagram; the display's text is the whole ``repr`` (anywidget cuts it at 110 characters).

    Subclasses set ``kind`` and declare the ``{pick}`` and ``{pick}_view`` traits (the pick
    checked with :meth:`_picked`), and any other trait the map's view picks (checked with
    :meth:`_position`).
    """

    kind: ClassVar[MapKind]
    view = traitlets.Dict().tag(sync=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "kind" in cls.__dict__:  # a map's class, not the one ``add_traits`` makes per widget
            cls._esm = inlined_module(cls.kind.module)
            cls._css = stylesheet(*cls.kind.css)
            cls.render_html = staticmethod(cls.kind.html_from_view)
        super().__init_subclass__(**kwargs)

    def __init__(self, model: Any) -> None:
        self._model = model
        super().__init__(view=self.kind.view(model))
        self.observe(self._draw_pick, names=self.kind.pick)

    def _draw_pick(self, change: dict[str, Any]) -> None:
        position = change["new"]
        diagram = self.kind.diagram(self._model, position) if position >= 0 else {}
        setattr(self, f"{self.kind.pick}_view", diagram)

    def _static_outputs(self) -> dict[str, str]:
        """The static HTML twin, and the whole ``repr`` as the text."""
        return {**super()._static_outputs(), "text/plain": repr(self)}

    def _picked(self, proposal: dict[str, Any]) -> int:
        """The proposed ``{pick}`` position, checked against the kind's count of items."""
        return self._position(proposal, self.kind.count(self._model), self.kind.pick)

    @staticmethod
    def _position(proposal: dict[str, Any], count: int, what: str) -> int:
        """The proposed position when it names one of ``count`` items or none; else an error."""
        value = proposal["value"]
        if not -1 <= value < count:
            raise traitlets.TraitError(f"no {what} at position {value} in this map")
        return value

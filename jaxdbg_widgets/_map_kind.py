"""What draws a map (the communication map, the memory map), declared once per map.

A map's display (text, static HTML, the standalone output) and its widget read the one
``MapKind``, so each map names its view, renderers and diagrams in one place and the steps that
use them are written once, here and in the modules that take a kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MapKind:
    """A map's name, the item a click picks, and the functions that draw the map and an item."""

    name: str
    """The map's JS module and CSS: ``{name}.js``, and ``{name}.css`` over the shared sheets."""
    pick: str
    """The trait of the picked item's position; the item's diagram fills ``{pick}_view``."""
    count: Callable[[Any], int]
    """How many items the model has to pick from."""
    diagram: Callable[[Any, int], Any]
    """The view model of the item at a position."""
    view: Callable[[Any], Any]
    """The map's view model, which the widget and the standalone output draw."""
    html_from_view: Callable[[Any], str]
    """The static HTML of a view model: the twin shown where no script runs."""
    text: Callable[..., str]
    """The map as terminal text (keywords: the renderer's options, such as ``use_color``)."""
    state: Mapping[str, Any] = field(default_factory=dict)
    """The map's other traits and their first values."""

    @property
    def module(self) -> str:
        """The map's ES module."""
        return f"{self.name}.js"

    @property
    def css(self) -> tuple[str, ...]:
        """The map's stylesheets, shared ones first."""
        return ("widgets.css", "sharding.css", f"{self.name}.css")

    def html(self, model: Any) -> str:
        """The map of ``model`` as static HTML."""
        return self.html_from_view(self.view(model))

"""The report widget's JSON, declared once: the ``view`` model the kernel sends, and its messages.

``js/schema/nans.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/nans.js`` imports, so TypeScript's checker holds it to them.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from jaxdbg_widgets.debugger.schema import DebuggerMessage, DebuggerView

__all__ = [
    "DebugMessage",
    "NonfiniteMessage",
    "NonfiniteModel",
    "NonfiniteView",
    "OriginView",
    "SourceRow",
    "SourceView",
]


class SourceRow(TypedDict):
    """One source line around the origin; ``marked`` on the origin's own line."""

    lineno: int
    text: str
    marked: bool


class SourceView(TypedDict):
    """The origin's file, function and the lines around its line."""

    filename: str
    function: str
    lines: list[SourceRow]


class OriginView(TypedDict):
    """One origin: its heading line, its facts, its source (``None`` without a user frame)."""

    heading: str
    facts: list[str]
    source: SourceView | None


class NonfiniteView(TypedDict):
    """The whole report as the widget and the static HTML draw it."""

    function: str
    headline: str
    arguments: list[str]
    origins: list[OriginView]
    checked: int
    skipped: list[str]
    debuggable: bool


class NonfiniteModel(TypedDict):
    """The widget's synced state: the report, the debugger opened at the origin (or ``None``), and
    the key its saved output links to it by (``js/live_link.js``)."""

    view: NonfiniteView
    debugger: DebuggerView | None
    link: str


class DebugMessage(TypedDict):
    """The button: open the debugger at the origin (a fresh session if one was open)."""

    type: Literal["debug"]


NonfiniteMessage = DebugMessage | DebuggerMessage
"""Any message the widget sends: the button's, or one of the opened debugger's."""

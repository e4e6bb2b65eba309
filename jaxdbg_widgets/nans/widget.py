"""The interactive report: an anywidget drawing the view model, the static HTML as its twin.

Its button opens the debugger at the origin inside the widget: a click arrives as a comm
message outside any running cell, so the session is served without blocking, each of its
commands applied in the message handler (:mod:`jaxdbg_widgets.debugger.serve.inline`), and its view
travels in the ``debugger`` trait, drawn by the debugger's own view in ``js/nans.js``.
"""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._linked import Linkable
from jaxdbg_widgets._twin_widget import TwinWidget
from jaxdbg_widgets.debugger.serve.inline import InlineSession
from jaxdbg_widgets.nans.frames import origin_frames
from jaxdbg_widgets.nans.html import html_from_view
from jaxdbg_widgets.nans.report import NonfiniteReport
from jaxdbg_widgets.nans.view import report_view

DEBUG_TYPE = "debug"
"""The button's message: open (or reopen) the debugger at the origin."""


class NonfiniteWidget(Linkable, TwinWidget):
    """Source with the origin's line marked, the facts, and the debugger opened there."""

    _esm = inlined_module("nans.js")
    _css = stylesheet("widgets.css", "nans.css", "debugger.css", "pictures.css")

    view = traitlets.Dict().tag(sync=True)
    debugger = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    render_html = staticmethod(html_from_view)

    def __init__(self, report: NonfiniteReport) -> None:
        self._report = report
        self._inline: InlineSession | None = None
        super().__init__(view=report_view(report))
        self.on_msg(self._on_message)

    @property
    def report(self) -> NonfiniteReport:
        return self._report

    def handle(self, content: Any) -> None:
        """Apply one front-end message: the button's ``debug``, or a debugger message."""
        if isinstance(content, dict) and content.get("type") == DEBUG_TYPE:
            self._open()
        elif self._inline is not None:
            self.debugger = dict(self._inline.apply(content))

    def _open(self) -> None:
        frames = origin_frames(self._report)
        if not frames:
            return
        if self._inline is not None:
            self._inline.close()
        self._inline = InlineSession(frames)
        self.debugger = dict(self._inline.view)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle(content)

    def __repr__(self) -> str:
        return f"NonfiniteWidget({self.view['headline']})"

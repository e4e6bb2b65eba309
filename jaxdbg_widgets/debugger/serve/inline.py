"""A debugger session that no thread waits on: each front-end message is applied as it comes.

A widget's click arrives as a comm message outside any running cell, so nothing can block for
the session's answer; here the message handler itself runs the command and returns the new view.
``c`` and ``q`` end the session (nothing is paused, so both just close it); the ended
session's last view, with its status, stays drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxdbg_widgets.debugger.schema import DebuggerView
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import ViewBuilder

RENDERED_TYPE = "rendered"
"""The view's first message: it drew, which an unblocked session need not wait for."""


class InlineSession:
    """One session over ``frames``, served message by message; ``view`` is what to draw."""

    def __init__(self, frames: Sequence[Any], *, stop: str = "inspecting, not stopped") -> None:
        self._session: Session | None = Session(frames, stop=stop)
        self._builder = ViewBuilder(self._session)
        self.view: DebuggerView = self._builder.build()

    @property
    def ended(self) -> bool:
        """Whether a continue or a quit closed the session."""
        return self._session is None

    def apply(self, content: Any) -> DebuggerView:
        """Apply one debugger message (``p in0``, a frame click, ``c``); the view after it.

        Messages to an ended session are ignored: its final view stays as it was.
        """
        session = self._session
        if session is None or (isinstance(content, dict) and content.get("type") == RENDERED_TYPE):
            return self.view
        apply_message(session, content)
        if session.resume is None:
            self.view = self._builder.build()
        else:
            self.view = self._builder.build(session.resume.value)
            self.close()
        return self.view

    def close(self) -> None:
        """Release the frames and their values; the last view is kept."""
        if self._session is not None:
            self._session.close()
            self._builder.forget()
            self._session = None

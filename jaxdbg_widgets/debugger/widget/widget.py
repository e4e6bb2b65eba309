"""The debugger widget: a thin anywidget view of a session's view state.

The state travels as one ``view`` dict (see :mod:`jaxdbg_widgets.debugger.view.build`); the browser
answers with ``model.send(...)`` messages (see :mod:`jaxdbg_widgets.debugger.serve.protocol`). The
output bundle also carries a static ``text/html`` rendering for saved notebooks and nbconvert;
once the session ends, :class:`~jaxdbg_widgets.debugger.widget.static_html.FrozenView` replaces the
output with that rendering alone, so a reopened notebook shows the transcript instead of a
widget whose model is gone.
"""

from __future__ import annotations

from typing import Any

import traitlets

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._twin_widget import TwinWidget
from jaxdbg_widgets.debugger.widget import render_memory, static_html


class DebuggerWidget(TwinWidget):
    """Header, frames, source, locals, transcript and command line of one breakpoint.

    Any message from its view, whenever the kernel handles it (during the session or after it
    ended), proves that the front end draws widgets: :mod:`.render_memory` notes it.
    """

    _esm = inlined_module("debugger.js")
    _css = stylesheet("widgets.css", "debugger.css", "pictures.css")

    view = traitlets.Dict().tag(sync=True)
    render_html = staticmethod(static_html.render)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(_heard_from_view)

    def __repr__(self) -> str:
        location = self.view.get("header", {}).get("location", "")
        return f"<jaxdbg breakpoint at {location}>"


def _heard_from_view(widget: DebuggerWidget, content: Any, buffers: Any) -> None:
    render_memory.note_rendered()

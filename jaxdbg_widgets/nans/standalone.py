"""The ``find_nonfinite`` report a notebook shows by default: one standalone ``text/html``
output, linked to a live widget while the kernel that ran the search runs.

The page alone draws the report, its facts and source; its "Debug at this line" button needs the
kernel, so the output draws over the live widget while that kernel lives
(``jaxdbg_widgets._linked``) and turns the button off, saying why, after a restart.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.nans.html import html_from_view
from jaxdbg_widgets.nans.report import NonfiniteReport
from jaxdbg_widgets.nans.text import render_text
from jaxdbg_widgets.nans.widget import NonfiniteWidget


def standalone_report(report: NonfiniteReport) -> StandaloneOutput:
    """The report as text and standalone HTML, linked to a new live widget."""
    live = NonfiniteWidget(report)
    html = standalone_html(
        module="nans.js",
        css=("widgets.css", "nans.css", "debugger.css", "pictures.css"),
        state={"view": live.view, "debugger": None, "link": live.link},
        static_html=html_from_view(live.view),
        link=live.link,
    )
    return StandaloneOutput(render_text(report), html)

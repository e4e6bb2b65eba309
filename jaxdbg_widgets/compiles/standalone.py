"""The compile report a notebook shows: one standalone ``text/html`` output.

Its page view (``js/compiles.js``) needs nothing from the kernel: the report's rows, programs,
causes and lines travel in the output, so a saved, restarted or reloaded notebook draws the
same view; where scripts do not run, the static HTML stays.
"""

from __future__ import annotations

from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.compiles.html import render_html
from jaxdbg_widgets.compiles.model import CompileReport
from jaxdbg_widgets.compiles.text import render_text
from jaxdbg_widgets.compiles.view import compiles_view


def standalone_report(report: CompileReport) -> StandaloneOutput:
    """The report as text and standalone HTML."""
    html = standalone_html(
        module="compiles.js",
        css=("compiles.css",),
        state={"view": compiles_view(report), "row": -1},
        static_html=render_html(report),
    )
    return StandaloneOutput(render_text(report), html)

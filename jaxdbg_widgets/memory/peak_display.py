"""``PeakMemory``: the peak reports with the hooks that show them as text, static HTML or the
page view.

In a notebook the output is one standalone ``text/html`` (:func:`standalone_peak`): the static
HTML twin, the view's JSON and ``js/peak.js``, which draws over a model kept in the page and
asks the kernel nothing, so a saved or reloaded notebook draws the same view.
"""

from __future__ import annotations

from jaxdbg_widgets._display import StandaloneDisplay
from jaxdbg_widgets._standalone_html import StandaloneOutput, standalone_html
from jaxdbg_widgets.memory.peak import PeakSet
from jaxdbg_widgets.memory.peak_html import render_peak_html
from jaxdbg_widgets.memory.peak_text import render_peak_text
from jaxdbg_widgets.memory.peak_view import peak_view


def standalone_peak(peaks: PeakSet) -> StandaloneOutput:
    """The reports as text and standalone HTML: bars by source line that open their buffers and
    code, a variant selector, the timeline; the static HTML where scripts do not run."""
    html = standalone_html(
        module="peak.js",
        css=("peak.css",),
        state={"view": peak_view(peaks), "variant": 0, "line": -1},
        static_html=render_peak_html(peaks),
    )
    return StandaloneOutput(render_peak_text(peaks), html)


class PeakMemory(StandaloneDisplay, PeakSet):
    """What is live at a program's peak: in a notebook an interactive view kept in the output
    (it draws after a save, restart or reload); static HTML elsewhere; text in a terminal."""

    to_text = render_peak_text
    to_html = render_peak_html
    standalone = standalone_peak

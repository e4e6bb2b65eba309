"""``PeakMemory``: the peak reports with the hooks that show them as text or static HTML.

The static HTML is the whole view, so a saved or reloaded notebook shows the same output.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._map_display import MapDisplay
from jaxdbg_widgets._standalone_html import StandaloneOutput
from jaxdbg_widgets.memory.peak import PeakSet
from jaxdbg_widgets.memory.peak_html import render_peak_html
from jaxdbg_widgets.memory.peak_text import render_peak_text


class PeakMemory(MapDisplay, PeakSet):
    """What is live at a program's peak; static HTML in a notebook, text in a terminal."""

    def to_text(self, *, use_color: bool = False) -> str:
        return render_peak_text(self)

    def to_html(self) -> str:
        return render_peak_html(self)

    def standalone(self) -> StandaloneOutput | None:
        """The kernel-free output: text and static HTML, the same after a save."""
        return StandaloneOutput(self.to_text(), self.to_html())

    def widget(self) -> Any:
        raise NotImplementedError("the peak report has no widget yet; it displays as static HTML")

    def text_renderable(self) -> Any:
        return self.to_text()

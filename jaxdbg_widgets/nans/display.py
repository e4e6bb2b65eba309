"""The report as the user meets it: text, static HTML, the widget, the debugger at the origin,
and one output in a notebook. A thin view over the model in :mod:`jaxdbg_widgets.nans.report`."""

from __future__ import annotations

import dataclasses
from typing import Any

from jaxdbg_widgets._display import LinkedDisplay
from jaxdbg_widgets.nans.frames import open_debugger, origin_frames
from jaxdbg_widgets.nans.html import render_html
from jaxdbg_widgets.nans.report import NonfiniteReport
from jaxdbg_widgets.nans.text import render_text


@dataclasses.dataclass(frozen=True, repr=False)
class NonfiniteReportView(LinkedDisplay, NonfiniteReport):
    """What ``find_nonfinite`` returns and a ``FloatingPointError`` of ``%jaxdbg nans on``
    carries: the report with its views."""

    @classmethod
    def of(cls, report: NonfiniteReport) -> NonfiniteReportView:
        """``report`` with its views (itself when it has them)."""
        if isinstance(report, cls):
            return report
        fields = {f.name: getattr(report, f.name) for f in dataclasses.fields(report)}
        return cls(**fields)

    to_text = render_text
    to_html = render_html

    def widget(self) -> Any:
        """The interactive view: source with the line marked and the facts."""
        from jaxdbg_widgets.nans.widget import NonfiniteWidget  # loads anywidget on first use

        return NonfiniteWidget(self)

    def frames(self) -> list[Any]:
        """Debugger frames at the origin, innermost first, its inputs and outputs as locals."""
        return origin_frames(self)

    def debug(self) -> None:
        """Open the debugger at the origin (widget, typed prompt or the headless policy)."""
        open_debugger(self)

    def standalone(self) -> Any:
        """The standalone output linked to a new widget for this report."""
        from jaxdbg_widgets.nans.standalone import standalone_report

        return standalone_report(self)

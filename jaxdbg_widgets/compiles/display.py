"""``CompileReportView``: the compile model with the hooks that show it as text or HTML.

The model (:class:`~jaxdbg_widgets.compiles.model.CompileReport`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.compiles.html import render_html
from jaxdbg_widgets.compiles.model import CompileReport
from jaxdbg_widgets.compiles.standalone import standalone_report
from jaxdbg_widgets.compiles.text import render_text


class CompileReportView(CompileReport):
    """Every trace and compile, its call site, cost and cause: in a notebook a sortable table
    whose rows open their programs, causes and source lines (kept in the output, so it draws
    after a save or restart); static HTML elsewhere; text in a terminal (``print``)."""

    def to_text(self) -> str:
        """The report as text."""
        return render_text(self)

    def to_html(self) -> str:
        """The report as static HTML."""
        return render_html(self)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        if running_kernel() is not None:
            return standalone_report(self)._repr_mimebundle_(**kwargs)
        return {"text/plain": self.to_text(), "text/html": self.to_html()}

"""``CompileReportView``: the compile model with the hooks that show it as text or HTML.

The model (:class:`~jaxdbg_widgets.compiles.model.CompileReport`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from jaxdbg_widgets._display import StandaloneDisplay
from jaxdbg_widgets.compiles.html import render_html
from jaxdbg_widgets.compiles.model import CompileReport
from jaxdbg_widgets.compiles.standalone import standalone_report
from jaxdbg_widgets.compiles.text import render_text


class CompileReportView(StandaloneDisplay, CompileReport):
    """Every trace and compile, its call site, cost and cause: in a notebook a sortable table
    whose rows open their programs, causes and source lines (kept in the output, so it draws
    after a save or restart); static HTML elsewhere; text in a terminal (``print``)."""

    to_text = render_text
    to_html = render_html
    standalone = standalone_report
    __repr__ = render_text

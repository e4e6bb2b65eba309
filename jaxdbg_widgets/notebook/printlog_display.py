"""``PrintLog``: the print log model with the hook that shows it in a notebook as a live table.

The model (:class:`~jaxdbg_widgets.notebook.printlog.PrintBuffer`) imports no view; this thin
subclass is the one place that knows the widget, imported only when the log is first shown.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.notebook.printlog import PrintBuffer


class PrintLog(PrintBuffer):
    """A bounded log of prints that displays as a filterable table in a notebook.

    ``PrintLog()`` starts collecting at once; ``close()`` (or leaving a ``with`` block) stops.
    """

    _widget: Any = None

    def widget(self) -> Any:
        """The live table for this log (one widget per log, created on first use)."""
        if self._widget is None:
            from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget

            self._widget = PrintLogWidget(self)
        return self._widget

    def _ipython_display_(self) -> None:
        """Show the log as one standalone output linked to the live table; the output is
        rewritten with the newest rows when a cell that printed ends, so a saved notebook shows
        the log as it last stood. On Colab, the live table itself (``outputs_share_the_page``)."""
        from IPython.display import display

        from jaxdbg_widgets._linked import outputs_share_the_page
        from jaxdbg_widgets.notebook.printlog_saved import follow

        if not outputs_share_the_page():
            display(self.widget())
            return
        handle = display(self.standalone()._repr_mimebundle_(), raw=True, display_id=True)
        follow(self, handle)

    def standalone(self) -> Any:
        """The log's newest rows as one standalone output linked to the live table."""
        from jaxdbg_widgets.notebook.printlog_standalone import standalone_log

        return standalone_log(self, self.widget())

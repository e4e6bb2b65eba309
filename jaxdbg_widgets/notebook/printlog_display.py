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

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget()._repr_mimebundle_(**kwargs)

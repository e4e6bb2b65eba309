"""Where a NaN or an infinity first appears: the search, its report and the report's views."""

from jaxdbg_widgets.nans.api import find_nonfinite
from jaxdbg_widgets.nans.display import NonfiniteReportView
from jaxdbg_widgets.nans.report import NonfiniteReport

__all__ = ["NonfiniteReport", "NonfiniteReportView", "find_nonfinite"]

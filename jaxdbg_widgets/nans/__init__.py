"""Where a NaN or an infinity first appears: the search, its report and the report's views."""

from jaxdbg_widgets.nans.report import NonfiniteReport
from jaxdbg_widgets.nans.search import find_nonfinite

__all__ = ["NonfiniteReport", "find_nonfinite"]

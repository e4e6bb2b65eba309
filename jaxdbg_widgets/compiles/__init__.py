"""The compile layer: every trace, lowering and compile, its call site, its cost and its cause."""

from jaxdbg_widgets.compiles.api import TooManyCompiles, max_compiles, watch_compiles
from jaxdbg_widgets.compiles.display import CompileReportView as CompileReport

__all__ = ["CompileReport", "TooManyCompiles", "max_compiles", "watch_compiles"]

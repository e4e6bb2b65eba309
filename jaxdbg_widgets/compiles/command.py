"""``%jaxdbg compiles [clear]``: the kernel-wide compile report the extension keeps.

``%load_ext jaxdbg`` starts recording into :data:`KERNEL_REPORT` (JAX calls the recorder only
when it traces or compiles, so a cached call costs nothing); unloading stops it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.compiles import recorder
from jaxdbg_widgets.compiles.display import CompileReportView

KERNEL_REPORT = CompileReportView()
"""Every trace, lowering and compile in this process since the extension loaded."""
ACTIONS = ("clear",)


def install(ip: Any) -> Callable[[], None]:
    """Record every compile in the kernel into :data:`KERNEL_REPORT`; the undo stops it."""
    return recorder.start(KERNEL_REPORT)


def recording() -> bool:
    """Whether the kernel-wide report is being fed now."""
    return KERNEL_REPORT in recorder.active()


def show(args: list[str]) -> None:
    """Display the kernel-wide report, or empty it (``clear``)."""
    if args == ["clear"]:
        KERNEL_REPORT.clear()
        print("compiles: cleared")
        return
    if args:
        raise ValueError(f"compiles takes nothing or 'clear', not {' '.join(args)!r}")
    if not recording():
        print("compiles: not recording (%load_ext jaxdbg starts it)")
    from IPython.display import display

    display(KERNEL_REPORT)

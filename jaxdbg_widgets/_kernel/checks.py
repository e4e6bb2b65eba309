"""Every probe of the kernel adapters, recorded in the capability table when the extension loads.

A failed check turns off only the feature that needs it. Where no load ran (a kernel that only
imported the package), the kernel's checks run once, the first time a breakpoint asks.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import (
    busy_status,
    cell_files,
    cell_output,
    completion,
    error_line,
    parent,
    restore,
    shell_queue,
    signals,
    stdin_channel,
    subshells,
    threads,
)

FEATURE_PARENT = "output of widget clicks and worker threads stays in the cell"
FEATURE_SUBSHELL = "widget clicks at a blocked breakpoint (kernel subshell)"
FEATURE_PUMP = "widget clicks at a blocked breakpoint (shell pumping)"
FEATURE_RESTORE = "debugger widget back after a page reload at a blocked breakpoint"
FEATURE_CELL_OUTPUT = "a page reloaded at a breakpoint shows the cell's output after Continue"
FEATURE_BUSY = "the kernel reads busy while a breakpoint blocks its cell"
FEATURE_STDIN = "typed (jdb) prompt through the stdin channel"
FEATURE_ERROR_LINE = "debugger quits and interrupts shown in one line"
FEATURE_COMPLETION = "%jaxdbg tab completion"
FEATURE_CELL_NAMES = "In[N] names for cell code in prints and frames"


def check_capabilities(shell: Any) -> None:
    """Record every private IPython/ipykernel/CPython name and signature the package uses."""
    _capabilities.check(
        "ipython", "error-line", FEATURE_ERROR_LINE, lambda: error_line.probe(shell)
    )
    _capabilities.check(
        "ipython", "completion", FEATURE_COMPLETION, lambda: completion.probe(shell)
    )
    _capabilities.check(
        "ipython", "cell-names", FEATURE_CELL_NAMES, lambda: cell_files.probe(shell)
    )
    _capabilities.check(threads.LIBRARY, threads.NAME, threads.FEATURE, threads.probe)
    _capabilities.check(signals.LIBRARY, signals.NAME, signals.FEATURE, signals.probe)
    kernel = getattr(shell, "kernel", None)
    if kernel is not None:
        check_kernel(kernel)


def check_kernel(kernel: Any) -> None:
    """Record the ipykernel capabilities of ``kernel``: parent header, stdin, busy status and one
    widget tier."""
    _capabilities.check("ipykernel", "parent-header", FEATURE_PARENT, lambda: parent.probe(kernel))
    _capabilities.check("ipykernel", "stdin", FEATURE_STDIN, lambda: stdin_channel.probe(kernel))
    _capabilities.check("ipykernel", "busy-status", FEATURE_BUSY, lambda: busy_status.probe(kernel))
    _capabilities.check(
        "ipykernel", "cell-output", FEATURE_CELL_OUTPUT, lambda: cell_output.probe(kernel)
    )
    if hasattr(kernel, "shell_channel_thread"):
        _capabilities.check(
            "ipykernel", "subshell-routing", FEATURE_SUBSHELL, lambda: subshells.probe(kernel)
        )
        _capabilities.check(
            "ipykernel", "widget-restore", FEATURE_RESTORE, lambda: restore.probe(kernel)
        )
    else:
        _capabilities.check(
            "ipykernel", "shell-pump", FEATURE_PUMP, lambda: shell_queue.probe(kernel)
        )
        _capabilities.check(
            "ipykernel",
            "widget-restore",
            FEATURE_RESTORE,
            lambda: shell_queue.probe_restore(kernel),
        )


def ensure_kernel_checked(kernel: Any) -> None:
    """Check ``kernel`` once where no load did; afterwards the table alone answers."""
    if not _capabilities.was_checked("ipykernel", "parent-header"):
        check_kernel(kernel)


def turn_off(library: str, name: str, feature: str, reason: str) -> None:
    """Record a capability as failed at run time (e.g. the pump kept failing to parse)."""

    def fail() -> None:
        raise RuntimeError(reason)

    _capabilities.check(library, name, feature, fail)

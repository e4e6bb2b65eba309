"""The debugger at a search's origin: the user frames of its line, its inputs and outputs as
locals, served by the same backend as every breakpoint (widget, typed prompt, script, headless)."""

from __future__ import annotations

import contextlib
import linecache
import os
import sys
from typing import Any

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets._kernel.shell import running_shell
from jaxdbg_widgets.core.frames import Frame
from jaxdbg_widgets.nans.report import NonfiniteReport, SourceLine


def _same_file(a: str | None, b: str) -> bool:
    """Whether two paths name one file (compared whole only where their names agree)."""
    if a is None or os.path.basename(a) != os.path.basename(b):
        return False
    return a == b or os.path.realpath(a) == os.path.realpath(b)


def file_globals(filename: str) -> dict[str, Any]:
    """The global names of the code in ``filename``, as a breakpoint there would see them.

    A frame of that file on the stack now gives its own; else the module loaded from it; else,
    for a notebook cell's code, the shell's user namespace; else nothing is known.
    """
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_globals
        frame = frame.f_back
    for module in list(sys.modules.values()):
        if _same_file(getattr(module, "__file__", None), filename):
            return vars(module)
    shell = running_shell()
    if shell is not None and cell_files.cell_name(filename) is not None:
        return shell.user_ns
    return {}


def _frame(line: SourceLine, local_values: dict[str, Any]) -> Frame:
    source = [text.rstrip("\n") for text in linecache.getlines(line.filename)]
    in_source = 0 < line.lineno <= len(source)
    return Frame(
        filename=line.filename,
        locals=dict(local_values),
        globals=file_globals(line.filename),
        code_context=[line.text] if line.text else None,
        source=source if in_source else [],
        lineno=line.lineno,
        offset=line.lineno - 1 if in_source else None,
        function=line.function,
        internal=False,
    )


def origin_frames(report: NonfiniteReport) -> list[Frame]:
    """Innermost first: the origin's line with the equation's values as locals, then its callers."""
    origin = report.origin
    if origin is None:
        return []
    frames = list(origin.frames) or [SourceLine("<unknown>", 0, origin.primitive, "")]
    return [_frame(frames[0], origin.values), *(_frame(line, {}) for line in frames[1:])]


def open_debugger(report: NonfiniteReport) -> None:
    """Serve the origin's frames as one debugger session; a quit or an interrupt just ends it."""
    from jaxdbg_widgets.core import breakpoints
    from jaxdbg_widgets.core.errors import DebuggerQuit
    from jaxdbg_widgets.debugger.serve import backend

    frames = origin_frames(report)
    if not frames:
        raise ValueError("the search found no non-finite value, so there is nowhere to debug")
    with contextlib.suppress(DebuggerQuit, KeyboardInterrupt), breakpoints.sessions.serve():
        backend.debugger_backend(frames, None)

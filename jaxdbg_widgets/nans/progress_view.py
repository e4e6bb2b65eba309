"""The progress line of a long search: one output updated in place in a notebook, one
rewritten line on a terminal's standard error."""

from __future__ import annotations

import sys
from html import escape
from typing import Any, TextIO

from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.nans.progress import SearchProgress, Sink

STYLE = (
    "font-family:var(--jp-ui-font-family,sans-serif);font-size:var(--jp-ui-font-size1,13px);"
    "color:var(--jp-ui-font-color1,#1f1f1f)"
)


def progress_html(reading: SearchProgress) -> str:
    """The reading as one line of HTML, with a bar while the count is within the program's."""
    bar = ""
    if reading.state == "running":
        value = f' value="{reading.checked}"' if reading.checked <= reading.total else ""
        bar = f'<progress max="{reading.total}"{value}></progress> '
    return f'<div class="jdw-nan-progress" style="{STYLE}">{bar}{escape(reading.text())}</div>'


class NotebookLine:
    """One display in the running cell, replaced by each reading."""

    def __init__(self) -> None:
        self._handle: Any = None

    def __call__(self, reading: SearchProgress) -> None:
        from IPython.display import display

        bundle = {"text/plain": reading.text(), "text/html": progress_html(reading)}
        if self._handle is None:
            self._handle = display(bundle, raw=True, display_id=True)
        else:
            self._handle.update(bundle, raw=True)


class TerminalLine:
    """One line of ``stream``, rewritten by each reading and ended by the final one."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._width = 0

    def __call__(self, reading: SearchProgress) -> None:
        text = reading.text()
        end = "" if reading.state == "running" else "\n"
        self._stream.write("\r" + text.ljust(self._width) + end)
        self._stream.flush()
        self._width = len(text)


def progress_sink() -> Sink:
    """The sink for where this code runs: the cell's output in a kernel, else standard error."""
    return NotebookLine() if running_kernel() is not None else TerminalLine(sys.stderr)

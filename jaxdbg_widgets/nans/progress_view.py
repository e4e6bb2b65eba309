"""The progress line of a long search: one output updated in place in a notebook, one
rewritten line on a terminal's standard error, whole lines in a log."""

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


class LogLines:
    """Whole lines of ``stream`` where it is no terminal (a log file, a pipe): no ``\r``, the
    first reading, then at most one every ``every`` seconds, and the final one."""

    def __init__(self, stream: TextIO, every: float = 10.0) -> None:
        self._stream = stream
        self._every = every
        self._last: float | None = None

    def __call__(self, reading: SearchProgress) -> None:
        due = self._last is None or reading.seconds - self._last >= self._every
        if reading.state == "running" and not due:
            return
        self._last = reading.seconds
        self._stream.write(reading.text() + "\n")
        self._stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


def progress_sink() -> Sink:
    """The sink for where this code runs: the cell's output in a kernel, else standard error,
    rewritten in place on a terminal and in whole lines elsewhere."""
    if running_kernel() is not None:
        return NotebookLine()
    stream = sys.stderr
    return TerminalLine(stream) if _is_terminal(stream) else LogLines(stream)

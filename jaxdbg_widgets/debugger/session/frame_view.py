"""One neutral view of a captured frame, read duck-typed from JAX's ``DebuggerFrame`` or core's ``Frame``.

JAX's frames have no function name and empty globals; core's frames add ``function``,
``globals`` and ``batched`` (the locals whose leaves are stacked on axis 0 under ``vmap``).
A frame that does not say whether it is internal is judged by its file
(:func:`jaxdbg_widgets.core.callsite.is_internal_file`).
"""

from __future__ import annotations

import functools
import linecache
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.core.callsite import is_internal_file

_DEF_LINE = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\(")


@dataclass
class FrameView:
    """What the debugger shows of one frame; ``locals``/``globals`` are dropped by :meth:`release`."""

    filename: str
    lineno: int
    function: str
    source: list[str]
    offset: int | None
    locals: dict[str, Any]
    globals: dict[str, Any]
    batched: dict[str, Any] = field(default_factory=dict)
    internal: bool = False

    @functools.cached_property
    def shown_file(self) -> str:
        """The file as the user knows it (``In[3]`` for a cell), asked of the kernel once."""
        return display_filename(self.filename)

    @functools.cached_property
    def shown_line(self) -> int:
        """The line as the user counts it (a line of the notebook's ``%%px`` cell for an
        engine's file of its code)."""
        return cell_files.cell_line(self.filename, self.lineno)

    @property
    def label(self) -> str:
        """``function (file:line)`` with the file and line as the user knows them."""
        return f"{self.function} ({self.shown_file}:{self.shown_line})"

    @property
    def first_lineno(self) -> int:
        """The shown line number of ``source[0]``."""
        return self.shown_line - self.offset if self.offset is not None else self.shown_line

    def release(self) -> None:
        """Forget every value of the program so nothing keeps its arrays alive."""
        self.locals = {}
        self.globals = {}


def view_frame(frame: Any) -> FrameView:
    """Read any frame object with ``filename``, ``lineno``, ``locals`` (and maybe more)."""
    filename = str(getattr(frame, "filename", "<unknown>"))
    lineno = int(getattr(frame, "lineno", 0) or 0)
    source = [str(line) for line in (getattr(frame, "source", None) or [])]
    offset = getattr(frame, "offset", None)
    if offset is not None and not 0 <= offset < len(source):
        offset = None
    if offset is not None and not source[offset].strip():
        source, offset = _whole_file(filename, lineno) or (source, offset)
    function = getattr(frame, "function", None) or _function_from_source(source, offset)
    internal = getattr(frame, "internal", None)
    return FrameView(
        filename=filename,
        lineno=lineno,
        function=str(function),
        source=source,
        offset=offset,
        locals=dict(getattr(frame, "locals", None) or {}),
        globals=dict(getattr(frame, "globals", None) or {}),
        batched=_batched(getattr(frame, "batched", None)),
        internal=is_internal_file(filename) if internal is None else bool(internal),
    )


def _whole_file(filename: str, lineno: int) -> tuple[list[str], int] | None:
    """The file's lines from ``linecache`` when they have text at ``lineno``, else ``None``.

    ``inspect`` cuts a module-level frame to its first statement when IPython 7 renames the
    cell's code ``<cell line: N>``, leaving the current line blank.
    """
    lines = [line.rstrip("\n") for line in linecache.getlines(filename)]
    if 0 < lineno <= len(lines) and lines[lineno - 1].strip():
        return lines, lineno - 1
    return None


def _batched(batched: Any) -> dict[str, Any]:
    """Batched locals by name, each with how to narrow it (``None``: index the value itself)."""
    if not batched:
        return {}
    if isinstance(batched, Mapping):
        return dict(batched)
    return dict.fromkeys(batched)


def _function_from_source(source: list[str], offset: int | None) -> str:
    """The nearest ``def name(`` at or above the current line, else ``<module>``."""
    if offset is None:
        return "<unknown>"
    current_indent = _indent(source[offset])
    for line in reversed(source[: offset + 1]):
        match = _DEF_LINE.match(line)
        if match and _indent(line) < current_indent:
            return match.group(1)
        if line.strip() and not line.lstrip().startswith(("#", "@", ")", "]", "}")):
            current_indent = min(current_indent, _indent(line))
    return "<module>"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def display_filename(filename: str) -> str:
    """``In[3]`` for code IPython compiled from cell 3, else the file name itself."""
    return cell_files.cell_name(filename) or filename

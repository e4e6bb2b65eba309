"""One neutral view of a captured frame, read duck-typed from JAX's ``DebuggerFrame`` or core's ``Frame``.

JAX's frames have no function name and empty globals; core's frames add ``function``,
``globals`` and ``batched`` (names whose values are stacked on axis 0 under ``vmap``).
Frames from Python itself, site-packages, IPython or this package are marked internal.
"""

from __future__ import annotations

import os
import re
import sysconfig
from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets import _kernel_internals

_DEF_LINE = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\(")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs.add(_PACKAGE_DIR)
    return tuple(sorted(os.path.abspath(d) + os.sep for d in dirs if d))


_LIBRARY_DIRS = _library_dirs()


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
    batched: frozenset[str] = field(default_factory=frozenset)
    internal: bool = False

    @property
    def label(self) -> str:
        """``function (file:line)`` with the file named as the user knows it."""
        return f"{self.function} ({display_filename(self.filename)}:{self.lineno})"

    @property
    def first_lineno(self) -> int:
        """Line number of ``source[0]`` in the file."""
        return self.lineno - self.offset if self.offset is not None else self.lineno

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
        batched=frozenset(getattr(frame, "batched", None) or ()),
        internal=is_internal_file(filename) if internal is None else bool(internal),
    )


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


def is_internal_file(filename: str) -> bool:
    """Whether a frame's file belongs to Python, an installed library or this package."""
    if filename.startswith("<frozen") or "importlib._bootstrap" in filename:
        return True
    return os.path.abspath(filename).startswith(_LIBRARY_DIRS)


def display_filename(filename: str) -> str:
    """``In[3]`` for code IPython compiled from cell 3, else the file name itself."""
    return _kernel_internals.cell_name(filename) or filename

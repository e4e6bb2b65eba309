"""The user's call site and internal-frame detection, by module and file name."""

from __future__ import annotations

import os
import sys
import sysconfig
from dataclasses import dataclass
from types import FrameType

INTERNAL_PACKAGES = frozenset(
    {
        "jax",
        "jaxlib",
        "jaxdbg_widgets",
        "IPython",
        "ipykernel",
        "asyncio",
        "tornado",
        "runpy",
        "threading",
        "concurrent",
        "traitlets",
        "zmq",
        "jupyter_client",
        "comm",
        "contextlib",
        "functools",
    }
)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs.add(_PACKAGE_DIR)
    return tuple(sorted(os.path.abspath(d) + os.sep for d in dirs if d))


_LIBRARY_DIRS = _library_dirs()


def is_internal_file(filename: str) -> bool:
    """Whether a file belongs to Python, an installed library (site-packages) or this package.

    ``ipykernel_launcher.py`` and every other installed module count, so only the user's own
    files and notebook cells are user frames.
    """
    if filename.startswith("<frozen") or "importlib._bootstrap" in filename:
        return True
    return os.path.abspath(filename).startswith(_LIBRARY_DIRS)


def is_internal(frame: FrameType) -> bool:
    """Whether ``frame`` is not the user's: by its module's package, else by its file."""
    module = frame.f_globals.get("__name__") or ""
    return module.partition(".")[0] in INTERNAL_PACKAGES or is_internal_file(
        frame.f_code.co_filename
    )


@dataclass(frozen=True)
class CallSite:
    """Where the user called a debug function: file, line and function name."""

    filename: str
    lineno: int
    function: str


UNKNOWN = CallSite("(unknown file)", 0, "(unknown)")


def user_call_site() -> CallSite:
    """The innermost frame that :func:`is_internal` calls the user's (trace-time provenance)."""
    frame = sys._getframe(1)
    while frame is not None:
        if not is_internal(frame):
            return CallSite(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return UNKNOWN

"""The user's call site and internal-frame detection, by module and file name."""

from __future__ import annotations

import os
import sys
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
_INTERNAL_FILE_PARTS = tuple(
    f"{os.sep}{name}{os.sep}" for name in ("jax", "jaxlib", "IPython", "ipykernel", "tornado")
)
_FROZEN_INTERNALS = ("<frozen runpy>", "<frozen importlib._bootstrap>")


def is_internal(frame: FrameType) -> bool:
    """Whether ``frame`` belongs to JAX, this package, IPython/ipykernel or the event loop."""
    module = frame.f_globals.get("__name__") or ""
    if module.partition(".")[0] in INTERNAL_PACKAGES:
        return True
    filename = frame.f_code.co_filename
    if filename in _FROZEN_INTERNALS:
        return True
    return "site-packages" in filename and any(part in filename for part in _INTERNAL_FILE_PARTS)


@dataclass(frozen=True)
class CallSite:
    """Where the user called a debug function: file, line and function name."""

    filename: str
    lineno: int
    function: str


UNKNOWN = CallSite("(unknown file)", 0, "(unknown)")


def user_call_site() -> CallSite:
    """The innermost frame outside JAX and this package (trace-time provenance)."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__") or ""
        if module.partition(".")[0] not in ("jax", "jaxlib", "jaxdbg_widgets"):
            return CallSite(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return UNKNOWN

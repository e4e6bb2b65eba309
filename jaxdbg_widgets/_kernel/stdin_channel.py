"""One typed line through the kernel's stdin channel."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets import _capabilities


def probe(kernel: Any) -> None:
    """Raise unless the kernel says whether stdin is allowed and can ask for a line."""
    _capabilities.require_attributes(kernel, ("_allow_stdin", "raw_input"))


def allowed(kernel: Any) -> bool:
    """Whether the request executing now lets the kernel ask the front end for input."""
    return bool(getattr(kernel, "_allow_stdin", False))


def read(kernel: Any, prompt: str) -> str | None:
    """One line through the kernel's stdin channel; ``None`` when the front end has none."""
    from IPython.core.error import StdinNotImplementedError

    try:
        return kernel.raw_input(prompt)
    except StdinNotImplementedError:
        return None

"""Fake frames shaped like JAX's ``DebuggerFrame`` and like core's ``Frame``."""

from __future__ import annotations

import os
import sysconfig
from dataclasses import dataclass, field
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from jaxdbg_widgets._kernel import checks

STDLIB_FILE = os.path.join(sysconfig.get_paths()["stdlib"], "asyncio", "events.py")

SOURCE = [
    "def step(x, scale):",
    "    y = x * scale",
    "    jax.debug.breakpoint()",
    "    return y",
]
CALLER = [
    "def run(x):",
    "    total = step(x, 2.0)",
    "    return total",
]


@dataclass
class JaxLikeFrame:
    """JAX's DebuggerFrame fields: no ``function``, empty ``globals``."""

    filename: str
    locals: dict[str, Any]
    globals: dict[str, Any]
    code_context: str
    source: list[str]
    lineno: int
    offset: int | None


@dataclass
class CoreLikeFrame:
    """core's Frame adds a function name, real globals and the batched names."""

    filename: str
    lineno: int
    function: str
    locals: dict[str, Any]
    globals: dict[str, Any] = field(default_factory=dict)
    source: list[str] = field(default_factory=list)
    offset: int | None = None
    batched: tuple[str, ...] = ()


def jax_frames(**inner_locals: Any) -> list[JaxLikeFrame]:
    inner = JaxLikeFrame("/work/model.py", inner_locals, {}, "", SOURCE, 12, 2)
    outer = JaxLikeFrame("/work/train.py", {"x": 1}, {}, "", CALLER, 31, 1)
    internal = JaxLikeFrame(STDLIB_FILE, {"self": None}, {}, "", ["run()"], 80, 0)
    return [inner, outer, internal]


@pytest.fixture
def frames() -> list[JaxLikeFrame]:
    return jax_frames(x=3, scale=2.0, y=6.0)


@pytest.fixture
def shell():
    """An in-process IPython shell that records what it would show instead of printing it;
    its capabilities are checked, as loading the extension checks them."""
    ip = InteractiveShell()
    shown = []
    ip._showtraceback = lambda etype, value, stb: shown.append((etype, value, stb))
    ip.shown = shown
    checks.check_capabilities(ip)
    return ip

"""How many modules of the package one breakpoint hit and its Continue enter, with a fake
inbox standing in for the widget (``python -m bench.debugger_hops``; docs/architecture.md)."""

from __future__ import annotations

import queue
import sys
import threading
from typing import Any

import jax
import jax.numpy as jnp

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.serve import backend
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd
from jaxdbg_widgets.debugger.transports.capability import Tier

BACKEND = "jaxdbg-hops"
CLICKS = ({"type": "rendered"}, {"type": "command", "line": "c"})


class _Inbox:
    """The widget's messages, from a queue."""

    def __init__(self, messages: queue.Queue) -> None:
        self.messages = messages

    def get(self, timeout: float | None) -> Any | None:
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self) -> None:
        self.messages.put(None)

    def close(self) -> None:
        pass


def modules_entered() -> set[str]:
    """The package's modules whose functions run during one hit and its Continue."""
    messages: queue.Queue = queue.Queue()
    front_end = FrontEnd(
        detect_tier=lambda: Tier.SUBSHELL,
        open_inbox=lambda widget: _Inbox(messages),
        read_line=lambda prompt: None,
        display=lambda widget: lambda obj: None,
    )
    undo = jax_registry.register(BACKEND, backend.make_backend(lambda: front_end), -100)
    step = jax.jit(lambda x: (jax.debug.breakpoint(backend=BACKEND), x + 1)[1])
    entered: set[str] = set()

    def profile(frame: Any, event: str, arg: Any) -> None:
        name = frame.f_globals.get("__name__", "")
        if event == "call" and name.startswith("jaxdbg_widgets"):
            entered.add(name)

    try:
        for round_ in range(2):  # the first round imports and compiles; the second is counted
            for click in CLICKS:
                messages.put(click)
            if round_:
                threading.setprofile(profile)
                sys.setprofile(profile)
            jax.block_until_ready(step(jnp.ones(1)))
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        undo()
    return entered


if __name__ == "__main__":
    found = modules_entered()
    print(f"{len(found)} modules entered on one hit and Continue")
    print("\n".join(sorted(found)))

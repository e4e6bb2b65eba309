"""A widget no front end draws is waited for once: later hits go straight to typed commands."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.serve import backend
from jaxdbg_widgets.debugger.serve.front_end import RENDER_TIMEOUT_ENV_VAR, FrontEnd
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.widget import render_memory

TEST_BACKEND = "jaxdbg-render-memory-test"
TIMEOUT_NOTICE = "no front end showed the debugger widget"


class _Inbox:
    def __init__(self, messages: queue.Queue) -> None:
        self.messages = messages
        self.waits: list[float] = []

    def get(self, timeout: float) -> Any | None:
        self.waits.append(timeout)
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        pass


class _ConsoleFrontEnd:
    """A front end that answers typed lines; its widgets speak only what is put in ``views``."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.views: queue.Queue = queue.Queue()
        self.inboxes: list[_Inbox] = []

    def __call__(self) -> FrontEnd:
        return FrontEnd(
            detect_tier=lambda: Tier.SUBSHELL,
            open_inbox=self._open,
            read_line=lambda prompt: self.lines.pop(0) if self.lines else None,
            display=lambda widget: lambda obj: None,
        )

    def _open(self, widget: Any) -> _Inbox:
        self.inboxes.append(_Inbox(self.views))
        return self.inboxes[-1]


@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch) -> Iterator[_ConsoleFrontEnd]:
    monkeypatch.setenv(RENDER_TIMEOUT_ENV_VAR, "0.05")
    monkeypatch.setattr(render_memory, "_silent", False)
    front_end = _ConsoleFrontEnd([])
    undo = jax_registry.register(TEST_BACKEND, backend.make_backend(front_end), -100)
    backend.new_run()
    try:
        yield front_end
    finally:
        undo()
        backend.new_run()


def _three_hits() -> None:
    def step(x: Any) -> Any:
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return x + 1

    for _ in range(3):
        jax.block_until_ready(step(jnp.ones(2)))


def test_after_one_render_timeout_later_hits_go_straight_to_typed_commands(console, capsys):
    console.lines[:] = ["c", "c", "c"]
    _three_hits()
    out = capsys.readouterr().out
    assert out.count(TIMEOUT_NOTICE) == 1
    assert out.count("Breakpoint") == 3
    first, *later = console.inboxes
    assert first.waits[0] > 0, "the first hit waited for the widget"
    assert all(inbox.waits == [0] for inbox in later), "later hits did not wait for it"
    assert render_memory.widgets_unseen()


def test_a_widget_that_acknowledges_brings_the_clickable_widget_back(console, capsys):
    render_memory.note_timeout()
    console.lines[:] = ["c"]
    console.views.put({"type": "rendered"})  # the widget shown beside the typed prompt drew
    console.views.put({"type": "command", "line": "c"})  # a click at the next hit
    console.views.put({"type": "command", "line": "c"})
    console.lines.append("c")
    _three_hits()
    out = capsys.readouterr().out
    assert TIMEOUT_NOTICE not in out
    assert out.count("Breakpoint") == 1, "only the first hit was typed"
    assert console.lines == ["c"], "the other two were answered by clicks"
    assert not render_memory.widgets_unseen()


def test_an_acknowledgement_handled_after_its_session_ended_still_counts():
    """A view that draws just as its typed session ends: the kernel handles its message after
    the inbox closed, through the widget's own handlers, and the next hit is clickable."""
    from jaxdbg_widgets.debugger.widget.widget import DebuggerWidget

    widget = DebuggerWidget(view={})
    render_memory.note_timeout()
    try:
        content = {"data": {"method": "custom", "content": {"type": "rendered"}}}
        widget._handle_msg({"content": content, "buffers": []})
        assert not render_memory.widgets_unseen()
    finally:
        render_memory.note_rendered()
        widget.close()

"""The widget loop waits on events: the render deadline, then the next message or change."""

from __future__ import annotations

import queue
import threading
from typing import Any

import jax
import jax.numpy as jnp

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.serve import backend
from jaxdbg_widgets.debugger.serve.clicks import wake_on_changes
from jaxdbg_widgets.debugger.serve.front_end import RENDER_TIMEOUT_ENV_VAR, FrontEnd
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.pictures.row import row_pictures

TEST_BACKEND = "jaxdbg-widget-wait-test"


class _Inbox:
    """Records how long each ``get`` was asked to wait."""

    def __init__(self, messages: queue.Queue) -> None:
        self.messages = messages
        self.waits: list[float | None] = []
        self.woken = threading.Event()

    def get(self, timeout: float | None) -> Any | None:
        self.waits.append(timeout)
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self) -> None:
        self.woken.set()
        self.messages.put(None)

    def close(self) -> None:
        pass


def _hit(open_inbox: Any) -> None:
    """One breakpoint served to a widget whose messages come from ``open_inbox``'s inbox."""
    front_end = FrontEnd(
        detect_tier=lambda: Tier.SUBSHELL,
        open_inbox=open_inbox,
        read_line=lambda prompt: None,
        display=lambda widget: lambda obj: None,
    )
    undo = jax_registry.register(TEST_BACKEND, backend.make_backend(lambda: front_end), -100)
    backend.new_run()
    try:
        jax.debug.breakpoint(backend=TEST_BACKEND)
        jax.block_until_ready(jnp.ones(1))
    finally:
        undo()
        backend.new_run()


def test_a_rendered_widget_waits_for_its_next_message_without_a_timer(monkeypatch):
    monkeypatch.setenv(RENDER_TIMEOUT_ENV_VAR, "30")
    messages: queue.Queue = queue.Queue()
    inboxes: list[_Inbox] = []

    def open_inbox(widget: Any) -> _Inbox:
        inboxes.append(_Inbox(messages))
        return inboxes[-1]

    messages.put({"type": "rendered"})
    threading.Timer(0.3, lambda: messages.put({"type": "command", "line": "c"})).start()
    _hit(open_inbox)
    [inbox] = inboxes
    first, *rest = inbox.waits
    assert 0 < first <= 30, "until the render deadline"
    assert rest == [None], "then one wait for the click, not a poll every fraction of a second"


def test_a_shard_session_change_wakes_the_widget_wait():
    session = ShardSession(draw_values=row_pictures, expected=2)
    inbox = _Inbox(queue.Queue())
    stop = wake_on_changes(session, inbox)
    try:
        session.gathering.touch()  # what a shard's arrival does
        assert inbox.woken.wait(30)
        assert inbox.get(0) is None
    finally:
        stop()


def test_a_hit_and_continue_build_the_view_twice_the_live_view_and_the_frozen_one(monkeypatch):
    from jaxdbg_widgets.debugger.view.build import ViewBuilder

    builds: list[str] = []
    build = ViewBuilder.build

    def counted(self, status: str = "waiting"):
        builds.append(status)
        return build(self, status)

    monkeypatch.setattr(ViewBuilder, "build", counted)
    messages: queue.Queue = queue.Queue()
    messages.put({"type": "rendered"})
    messages.put({"type": "command", "line": "c"})
    _hit(lambda widget: _Inbox(messages))
    assert builds == ["waiting", "continue"]

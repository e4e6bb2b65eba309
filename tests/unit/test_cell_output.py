"""The kernel adapter that follows a running cell's output, and the ended debugger that copies
that output into its view only when a page got its widgets back while the session waited."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from jupyter_client.session import Session

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import cell_output, messages
from jaxdbg_widgets.debugger.widget import ended


class Events:
    """IPython's event manager, as far as the adapter uses it."""

    def __init__(self) -> None:
        self.callbacks: list[tuple[str, Any]] = []

    def register(self, event: str, function: Any) -> None:
        self.callbacks.append((event, function))

    def unregister(self, event: str, function: Any) -> None:
        self.callbacks.remove((event, function))

    def trigger(self, event: str, *args: Any) -> None:
        for name, function in list(self.callbacks):
            if name == event:
                function(*args)


class Kernel:
    """A kernel whose one session sends nowhere and whose running request is ``cell``."""

    def __init__(self, request: str = "cell") -> None:
        self.session = Session(key=b"secret")
        publisher = SimpleNamespace(session=self.session)
        self.shell = SimpleNamespace(events=Events(), display_pub=publisher, displayhook=publisher)
        self.request = {"header": {"msg_id": request}}

    def get_parent(self, channel: str = "shell") -> dict[str, Any]:
        return self.request

    def emit(self, msg_type: str, content: dict[str, Any], request: str = "cell") -> None:
        self.session.send(None, msg_type, content, parent={"header": {"msg_id": request}})


class Widget:
    def __init__(self) -> None:
        self.view = {"status": "continue", "transcript": []}
        self.views: list[dict[str, Any]] = []
        self.closed = False

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "view" and "view" in self.__dict__:
            self.views.append(value)
        super().__setattr__(name, value)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def kernel(monkeypatch) -> Kernel:
    running = Kernel()
    monkeypatch.setattr(ended, "running_kernel", lambda: running)
    monkeypatch.setattr(ended, "_kept", type(ended._kept)())
    monkeypatch.setattr(ended, "PUSH_DELAY", 3600.0)  # only the final redraw, within the test
    monkeypatch.setattr(_capabilities, "_table", dict(_capabilities._table))
    _capabilities.check("ipykernel", "cell-output", "test", lambda: cell_output.probe(running))
    return running


def test_the_probe_passes_on_a_kernel_whose_displays_use_its_session_and_fails_otherwise():
    running = Kernel()
    cell_output.probe(running)
    running.shell.displayhook = SimpleNamespace(session=Session())
    with pytest.raises(AttributeError, match="displayhook does not send through"):
        cell_output.probe(running)


def test_only_the_cells_messages_reach_the_listener_until_it_finishes(kernel):
    seen: list[tuple[str, dict[str, Any]]] = []
    ends: list[bool] = []
    cell_output.follow_cell(kernel, lambda t, c: seen.append((t, c)), lambda: ends.append(True))
    assert "send" in vars(kernel.session)
    kernel.emit("stream", {"name": "stdout", "text": "mine\n"})
    kernel.emit("stream", {"name": "stdout", "text": "another cell's\n"}, request="other")
    kernel.shell.events.trigger("post_run_cell", None)
    kernel.emit("stream", {"name": "stdout", "text": "after the cell\n"})
    assert seen == [("stream", {"name": "stdout", "text": "mine\n"})]
    assert ends == [True]
    assert "send" not in vars(kernel.session), "the session's own send is back"
    assert kernel.shell.events.callbacks == []


def test_outside_a_cell_nothing_is_followed():
    idle = Kernel()
    idle.request = {}
    with pytest.raises(LookupError, match="no cell is running"):
        cell_output.follow_cell(idle, lambda t, c: None, lambda: None)
    assert "send" not in vars(idle.session)


def _page_reloads(session: Session) -> None:
    """What a reloaded page sends first to get its widgets back: the widget control comm."""
    opened = {"comm_id": "control", "target_name": messages.CONTROL_TARGET, "data": {}}
    peek = session.msg("comm_open", opened)
    peek["content"] = session.pack(peek["content"])
    assert messages.restores_widgets(session, peek, set())


def test_after_a_reload_the_ended_widget_gets_the_rest_of_the_cell_and_its_result(kernel):
    widget = Widget()
    mark = ended.reload_mark()
    _page_reloads(kernel.session)
    ended.keep(widget, mark)
    kernel.emit("stream", {"name": "stdout", "text": "after the breakpoint\n"})
    kernel.emit("execute_result", {"execution_count": 5, "data": {"text/plain": "'main result'"}})
    assert widget.views == [], "no redraw before the cell finishes (or its delay passes)"
    kernel.shell.events.trigger("post_run_cell", None)
    assert widget.views[-1] == {
        "status": "continue",
        "transcript": [],
        "cell_output": {
            "chunks": [{"kind": "stdout", "text": "after the breakpoint\n"}],
            "omitted": 0,
            "result": {"count": 5, "text": "'main result'"},
        },
    }
    assert ended.kept() == [widget] and not widget.closed


def test_the_cell_is_the_one_running_when_the_session_started(kernel):
    """On a thread with no parent of its own, the kernel-wide parent may be a reloaded page's
    message by the time the session ends; the output copied is still the cell's."""
    widget = Widget()
    mark = ended.reload_mark()
    _page_reloads(kernel.session)
    kernel.request = {"header": {"msg_id": "the page's comm_close"}}
    ended.keep(widget, mark)
    kernel.emit("stream", {"name": "stdout", "text": "after the breakpoint\n"})
    kernel.shell.events.trigger("post_run_cell", None)
    chunks = widget.views[-1]["cell_output"]["chunks"]
    assert chunks == [{"kind": "stdout", "text": "after the breakpoint\n"}]


def test_without_a_reload_the_ended_widget_keeps_its_final_view(kernel):
    widget = Widget()
    ended.keep(widget, ended.reload_mark())
    kernel.emit("stream", {"name": "stdout", "text": "after the breakpoint\n"})
    kernel.shell.events.trigger("post_run_cell", None)
    assert widget.views == []
    assert "send" not in vars(kernel.session)


def test_where_the_kernel_check_failed_a_reload_changes_nothing(kernel):
    _capabilities.check("ipykernel", "cell-output", "test", lambda: 1 / 0)
    widget = Widget()
    mark = ended.reload_mark()
    _page_reloads(kernel.session)
    ended.keep(widget, mark)
    assert kernel.shell.events.callbacks == [] and "send" not in vars(kernel.session)


def test_output_while_the_cell_runs_is_redrawn_after_the_delay(kernel, monkeypatch):
    monkeypatch.setattr(ended, "PUSH_DELAY", 0.01)
    widget = Widget()
    assert ended.follow_cell(widget)
    kernel.emit("stream", {"name": "stderr", "text": "step 1\n"})
    deadline = time.monotonic() + 5
    while not widget.views and time.monotonic() < deadline:
        time.sleep(0.01)
    assert widget.views[-1]["cell_output"]["chunks"] == [{"kind": "stderr", "text": "step 1\n"}]
    kernel.shell.events.trigger("post_run_cell", None)
    assert widget.views[-1]["cell_output"]["result"] is None


class SlowWidget(Widget):
    """A widget whose first redraw stalls, as a timer thread may stall between copying the
    output and sending it, until a later redraw starts (or ``STALL`` seconds pass)."""

    STALL = 0.3

    def __init__(self) -> None:
        super().__init__()
        self.stalled, self.later, self.two_drawn = (threading.Event() for _ in range(3))

    def __setattr__(self, name: str, value: Any) -> None:
        redraw = name == "view" and "view" in self.__dict__
        if redraw and not self.stalled.is_set():
            self.stalled.set()
            self.later.wait(self.STALL)
        elif redraw:
            self.later.set()
        super().__setattr__(name, value)
        if redraw and len(self.views) == 2:
            self.two_drawn.set()


def test_a_redraw_copied_before_the_cells_last_output_never_lands_after_the_final_one(
    kernel, monkeypatch
):
    monkeypatch.setattr(ended, "PUSH_DELAY", 0.0)
    widget = SlowWidget()
    assert ended.follow_cell(widget)
    kernel.emit("stream", {"name": "stdout", "text": "after the breakpoint\n"})
    assert widget.stalled.wait(5), "the timer's redraw has copied the output"
    monkeypatch.setattr(ended, "PUSH_DELAY", 3600.0)  # the next timer waits for the final one
    kernel.emit("stream", {"name": "stderr", "text": "done\n"})
    kernel.shell.events.trigger("post_run_cell", None)
    assert widget.two_drawn.wait(5)
    assert widget.views[-1]["cell_output"]["chunks"] == [
        {"kind": "stdout", "text": "after the breakpoint\n"},
        {"kind": "stderr", "text": "done\n"},
    ]

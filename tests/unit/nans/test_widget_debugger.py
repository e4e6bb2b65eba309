"""The report widget's button: the debugger opened at the origin inside the widget, each of its
messages applied by the handler itself, without a kernel and without a blocked thread."""

from __future__ import annotations

import threading

import jax.numpy as jnp
import pytest

from jaxdbg_widgets.nans import find_nonfinite
from tests.unit.nans import cases


def _message(widget, content):
    """What a comm message from the view does: the widget's custom-message handlers run."""
    widget._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


@pytest.fixture
def widget():
    return find_nonfinite(cases.scan_program, jnp.arange(6.0)).widget()


def test_no_debugger_is_shown_before_the_button(widget):
    assert widget.debugger is None


def test_the_button_opens_a_session_at_the_origin_with_its_values_as_locals(widget):
    before = set(threading.enumerate())  # threads of earlier tests may end meanwhile
    _message(widget, {"type": "debug"})
    view = widget.debugger
    assert view["status"] == "waiting"
    assert view["header"]["function"] == "scan_body"
    assert view["header"]["stop"] == "inspecting, not stopped"
    assert {"in0", "out0"} <= {row["name"] for row in view["locals"]}
    assert view["source"]["lines"][view["source"]["current"]].count("jnp") == 1
    assert set(threading.enumerate()) - before == set()  # no thread waits on the session


def test_p_pp_and_frame_moves_are_answered_in_the_handler(widget):
    _message(widget, {"type": "debug"})
    _message(widget, {"type": "rendered"})
    _message(widget, {"type": "command", "line": "p out0"})
    assert widget.debugger["transcript"][-1]["output"] == "array(-inf, dtype=float32)"
    _message(widget, {"type": "command", "line": "pp in0 - 1"})
    assert widget.debugger["transcript"][-1]["command"] == "pp in0 - 1"
    assert not widget.debugger["transcript"][-1]["error"]
    _message(widget, {"type": "command", "line": "w"})
    assert 'cases.py", line 11' in widget.debugger["transcript"][-1]["output"]
    _message(widget, {"type": "command", "line": "l"})
    assert "jnp.log" in widget.debugger["transcript"][-1]["output"]
    _message(widget, {"type": "frame", "index": 0})
    assert widget.debugger["selected"] == 0
    for line in ("u", "d"):
        _message(widget, {"type": "command", "line": line})
        assert widget.debugger["transcript"][-1]["command"] == line
    assert widget.debugger["status"] == "waiting"


def test_a_bad_message_is_a_transcript_error_and_the_session_goes_on(widget):
    _message(widget, {"type": "debug"})
    _message(widget, {"type": "frame", "index": "x"})
    assert widget.debugger["transcript"][-1]["error"]
    assert widget.debugger["status"] == "waiting"


@pytest.mark.parametrize(("line", "status"), [("c", "continue"), ("q", "quit")])
def test_continue_and_quit_close_the_session_and_keep_its_last_view(widget, line, status):
    _message(widget, {"type": "debug"})
    _message(widget, {"type": "command", "line": "p out0"})
    _message(widget, {"type": "command", "line": line})
    ended = widget.debugger
    assert ended["status"] == status
    assert widget._inline.ended
    _message(widget, {"type": "command", "line": "p out0"})
    assert widget.debugger == ended  # an ended session answers nothing more


def test_the_button_after_an_ended_session_opens_a_fresh_one(widget):
    _message(widget, {"type": "debug"})
    _message(widget, {"type": "command", "line": "c"})
    _message(widget, {"type": "debug"})
    assert widget.debugger["status"] == "waiting"
    assert widget.debugger["transcript"] == []


def test_a_finite_report_has_nowhere_to_open():
    widget = find_nonfinite(cases.scan_program, jnp.arange(6.0) - 10.0).widget()
    _message(widget, {"type": "debug"})
    assert widget.debugger is None


def test_the_frames_at_the_origin_see_their_module_globals(widget):
    frames = find_nonfinite(cases.scan_program, jnp.arange(6.0)).frames()
    assert frames[0].globals["jnp"] is jnp and frames[0].globals["scan_body"] is cases.scan_body
    _message(widget, {"type": "debug"})
    _message(widget, {"type": "command", "line": "p jnp.isinf(out0)"})
    last = widget.debugger["transcript"][-1]
    assert not last["error"] and "True" in last["output"]
    _message(widget, {"type": "command", "line": "p scan_program.__name__"})
    assert widget.debugger["transcript"][-1]["output"] == "'scan_program'"


def test_a_notebook_cell_origin_sees_the_user_namespace_and_an_unknown_file_nothing(
    monkeypatch,
):
    from types import SimpleNamespace

    from jaxdbg_widgets.nans import frames

    namespace = {"params": {"w": 1.0}}
    monkeypatch.setattr(frames, "running_shell", lambda: SimpleNamespace(user_ns=namespace))
    monkeypatch.setattr(frames.cell_files, "cell_name", lambda name: "In[3]")
    assert frames.file_globals("/tmp/ipykernel_1/3.py") is namespace
    monkeypatch.setattr(frames.cell_files, "cell_name", lambda name: None)
    assert frames.file_globals("/nowhere/model.py") == {}

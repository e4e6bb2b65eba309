"""Front-end messages: commands, frame and batch selection, internal frames, bad input."""

from __future__ import annotations

import pytest

from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.single import Session


def test_command_frame_and_internal_messages(frames):
    session = Session(frames)
    apply_message(session, {"type": "frame", "index": 1})
    assert session.selected == 1
    apply_message(session, {"type": "command", "line": "p x"})
    assert session.transcript[-1].output == "1"
    apply_message(session, {"type": "internal", "show": True})
    assert session.show_internal and session.selected == 1
    apply_message(session, {"type": "command", "line": "c"})
    assert session.resume is Resume.CONTINUE


@pytest.mark.parametrize(
    "message",
    [
        "c",
        None,
        {"type": "explode"},
        {"type": "command"},
        {"type": "command", "line": 5},
        {"type": "frame", "index": "1"},
        {"type": "frame", "index": True},
        {"type": "frame", "index": 99},
        {"type": "batch", "index": 0},
    ],
)
def test_bad_messages_become_errors_and_never_end_the_session(frames, message):
    session = Session(frames)
    apply_message(session, message)
    assert session.transcript[-1].error
    assert session.resume is None
    assert session.selected == 0


def test_an_out_of_range_batch_pick_shows_the_action_then_the_error(frames):
    session = Session(frames, batch_size=3)
    apply_message(session, {"type": "batch", "index": 7})
    entry = session.transcript[-1]
    assert entry.command == "b 7"
    assert entry.error and entry.output == "*** batch index must be an integer in [0, 2]"

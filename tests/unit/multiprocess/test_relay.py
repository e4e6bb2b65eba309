"""An engine's hits go to the relay (the desk the notebook answers) instead of its own front
ends, and the undo gives them back."""

from __future__ import annotations

import threading

from jaxdbg_widgets.debugger.serve import backend, relay
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.multiprocess.desk import Desk, Ended

from ..debugger.conftest import jax_frames


def _never(*_args):
    raise AssertionError("a relayed hit never reaches this process's front ends")


def _front_end() -> FrontEnd:
    return FrontEnd(detect_tier=_never, open_inbox=_never, read_line=_never, display=_never)


def _wait_for_hit(desk: Desk) -> dict:
    for _ in range(1000):
        hits = desk.answer({"op": "state"})["hits"]
        if hits:
            return hits[0]
        threading.Event().wait(0.01)
    raise AssertionError("no hit reached the desk")


def test_a_hit_is_served_by_the_relay_and_the_undo_restores_the_front_ends():
    desk = Desk(lambda: 0)
    undo = relay.set_server(desk.serve)
    try:
        serve = backend.make_backend(_front_end)
        done = threading.Event()
        backend.new_run()
        thread = threading.Thread(
            target=lambda: (serve(jax_frames(y=3.0), None), done.set()), daemon=True
        )
        thread.start()
        held = _wait_for_hit(desk)
        view = desk.answer(
            {"op": "message", "token": held["token"], "message": {"type": "command", "line": "p y"}}
        )
        assert view["rows"][-1]["output"] == "3.0"
        desk.answer({"op": "continue", "token": held["token"], "index": None})
        assert done.wait(10)
        assert desk.answer({"op": "state"})["hits"] == []
    finally:
        undo()
        backend.new_run()
    assert relay.current() is None


def test_the_desk_names_each_hit_and_ends_it_with_the_notebooks_reason():
    desk = Desk(lambda: 3)
    outcome = []
    session = Session(jax_frames(y=1.0), device="CPU 6")

    def serve():
        try:
            outcome.append(desk.serve(session))
        except Ended as ended:
            outcome.append(ended)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    held = _wait_for_hit(desk)
    assert desk.answer({"op": "state"})["process"] == 3
    assert held["devices"] == [{"label": "CPU 6", "state": "waiting"}]
    desk.answer({"op": "end", "token": held["token"], "reason": "process 1 died"})
    thread.join(10)
    assert isinstance(outcome[0], Ended) and str(outcome[0]) == "process 1 died"

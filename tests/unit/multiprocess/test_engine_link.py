"""A request to an engine's desk: its answer, a late answer, and an engine that dies while the
request waits, which is named as soon as the client stops listing it."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future

import pytest

from jaxdbg_widgets.debugger.session.cluster_link import ProcessLost
from jaxdbg_widgets.multiprocess import breaks


class FakeClient:
    """Engines 0 and 1; each control request gets a future that the test resolves, or not."""

    def __init__(self) -> None:
        self.ids = [0, 1]
        self.sent: list[tuple[list[int], str, dict]] = []
        self.replies: list[Future] = []

    def _send_control_request(self, targets, msg_type, content, block):
        assert block is False
        self.sent.append((targets, msg_type, content))
        future: Future = Future()
        self.replies.append(future)
        return future


def _link(timeout: float = 5.0) -> tuple[breaks.EngineLink, FakeClient]:
    client = FakeClient()
    return breaks.EngineLink(client, {0: 0, 1: 1}, timeout=timeout), client


def test_the_answer_is_the_reply_content_of_the_engine_that_runs_the_process():
    link, client = _link()
    threading.Timer(0.2, lambda: client.replies[0].set_result([{"content": {"hits": []}}])).start()
    assert link.ask(1, {"op": "state"}) == {"hits": []}
    assert client.sent == [([1], breaks.REQUEST_TYPE, {"op": "state"})]


def test_an_engine_that_dies_while_a_request_waits_is_named_at_once():
    link, client = _link(timeout=30.0)
    threading.Timer(0.3, client.ids.remove, args=(1,)).start()
    started = time.monotonic()
    with pytest.raises(ProcessLost, match="engine 1 left the cluster"):
        link.ask(1, {"op": "state"})
    assert time.monotonic() - started < 5.0  # not the 30 s an answer may take


def test_a_live_engine_that_answers_late_is_a_timeout_not_a_death():
    link, _ = _link(timeout=0.3)
    with pytest.raises(TimeoutError, match=r"engine 0 did not answer within 0\.3 s"):
        link.ask(0, {"op": "state"})


def test_an_engine_already_gone_is_named_before_anything_is_sent():
    link, client = _link()
    client.ids.remove(0)
    with pytest.raises(ProcessLost, match="engine 0 left the cluster"):
        link.ask(0, {"op": "state"})
    assert client.sent == []


def test_a_failed_reply_is_a_lost_process():
    link, client = _link()
    threading.Timer(0.1, lambda: client.replies[0].set_exception(OSError("socket closed"))).start()
    with pytest.raises(ProcessLost, match=r"engine 0: .*socket closed"):
        link.ask(0, {"op": "state"})

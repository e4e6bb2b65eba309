"""The kernel tests' reply matching: a reply is the one whose parent is the request, never
simply the next message; replies to other requests wait for their own callers."""

from __future__ import annotations

import queue

import pytest

from tests.fixtures.kernel import reply_to


def _channel(*parents: str):
    """A channel's ``get_*_msg``: one message per parent id, in order, then nothing."""
    waiting: queue.Queue = queue.Queue()
    for parent in parents:
        waiting.put({"parent_header": {"msg_id": parent}, "content": {"for": parent}})

    def read(timeout: float):
        return waiting.get(timeout=min(timeout, 0.05))

    return read


def test_the_reply_to_a_request_is_found_past_replies_to_others():
    read, kept = _channel("execute-1", "kernel-info", "complete-2"), {}
    assert reply_to(read, "complete-2", 1, kept)["content"]["for"] == "complete-2"
    assert reply_to(read, "execute-1", 1, kept)["content"]["for"] == "execute-1"
    assert reply_to(read, "kernel-info", 1, kept)["content"]["for"] == "kernel-info"
    assert kept == {"execute-1": [], "kernel-info": []}


def test_several_messages_for_one_request_come_back_in_order():
    read, kept = _channel("cell", "cell", "other"), {}
    reply_to(read, "other", 1, kept)
    assert [reply_to(read, "cell", 1, kept) for _ in range(2)] == [
        {"parent_header": {"msg_id": "cell"}, "content": {"for": "cell"}}
    ] * 2


def test_no_reply_is_a_timeout_and_what_came_is_kept():
    read, kept = _channel("someone-else"), {}
    with pytest.raises(TimeoutError, match="no message answering mine"):
        reply_to(read, "mine", 0.2, kept)
    assert list(kept) == ["someone-else"]

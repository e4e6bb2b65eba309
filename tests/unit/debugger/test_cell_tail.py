"""The cell's output after its debugger ended, as the ended widget keeps it: in order, merged,
bounded to the latest text with a count of what was left out."""

import pytest

from jaxdbg_widgets.debugger.widget import cell_tail
from jaxdbg_widgets.debugger.widget.cell_tail import CellTail


def test_text_keeps_its_order_and_chunks_of_one_kind_merge():
    tail = CellTail()
    tail.add("stdout", "a\n")
    tail.add("stdout", "b\n")
    tail.add("stderr", "warn\n")
    tail.add("stdout", "c\n")
    assert tail.to_json() == {
        "chunks": [
            {"kind": "stdout", "text": "a\nb\n"},
            {"kind": "stderr", "text": "warn\n"},
            {"kind": "stdout", "text": "c\n"},
        ],
        "omitted": 0,
        "result": None,
    }


def test_past_the_bound_the_earliest_text_goes_and_is_counted():
    tail = CellTail(max_text=10)
    tail.add("stdout", "0123456")
    tail.add("stderr", "abcdef")  # 13 characters: the first 3 go
    state = tail.to_json()
    assert state["omitted"] == 3
    assert state["chunks"] == [
        {"kind": "stdout", "text": "3456"},
        {"kind": "stderr", "text": "abcdef"},
    ]
    tail.add("stdout", "XYZWVUTSRQP")  # longer than the bound on its own
    state = tail.to_json()
    assert state["chunks"] == [{"kind": "stdout", "text": "YZWVUTSRQP"}]
    assert state["omitted"] == 3 + 10 + 1
    assert sum(len(c["text"]) for c in state["chunks"]) == 10


def test_many_prints_stay_bounded():
    tail = CellTail()
    for step in range(5_000):
        tail.add("stdout", f"step {step}\n")
    state = tail.to_json()
    kept = "".join(c["text"] for c in state["chunks"])
    assert len(kept) == cell_tail.MAX_TEXT
    assert kept.endswith("step 4999\n")
    assert state["omitted"] + len(kept) == sum(len(f"step {s}\n") for s in range(5_000))


def test_the_result_keeps_its_count_and_a_long_one_is_cut_with_a_line_saying_so():
    tail = CellTail(max_result=5)
    tail.set_result(7, "'main'")
    assert tail.to_json()["result"] == {"count": 7, "text": "'main\n… 1 characters more"}
    tail.set_result(8, "ok")
    assert tail.to_json()["result"] == {"count": 8, "text": "ok"}


def test_bad_kinds_and_bounds_are_refused_clearly():
    with pytest.raises(ValueError, match="unknown output kind 'html'"):
        CellTail().add("html", "x")
    with pytest.raises(ValueError, match="bounds must be positive"):
        CellTail(max_text=0)


def test_messages_map_to_chunks_and_the_result_and_widget_traffic_shows_nothing():
    tail = CellTail()
    shown = [
        cell_tail.from_message(tail, "stream", {"name": "stdout", "text": "after\n"}),
        cell_tail.from_message(tail, "stream", {"name": "stderr", "text": "careful\n"}),
        cell_tail.from_message(
            tail, "display_data", {"data": {"text/plain": "<Figure>", "image/png": "..."}}
        ),
        cell_tail.from_message(tail, "comm_msg", {"comm_id": "c", "data": {}}),
        cell_tail.from_message(tail, "display_data", {"data": {"image/png": "..."}}),
        cell_tail.from_message(tail, "error", {"ename": "ValueError", "evalue": "bad"}),
        cell_tail.from_message(
            tail, "execute_result", {"execution_count": 4, "data": {"text/plain": "'main result'"}}
        ),
    ]
    assert shown == [True, True, True, False, False, True, True]
    assert tail.to_json() == {
        "chunks": [
            {"kind": "stdout", "text": "after\n"},
            {"kind": "stderr", "text": "careful\n"},
            {"kind": "display", "text": "<Figure>\n"},
            {"kind": "error", "text": "ValueError: bad\n"},
        ],
        "omitted": 0,
        "result": {"count": 4, "text": "'main result'"},
    }

"""The print log model: a ring buffer of prints with filters, driven without a kernel."""

import threading

import pytest

from jaxdbg_widgets.core import sinks
from jaxdbg_widgets.notebook import cells
from jaxdbg_widgets.notebook.printlog import MAX_SUMMARY, MAX_TEXT
from jaxdbg_widgets.notebook.printlog_display import PrintLog
from tests.unit.notebook.records import record


@pytest.fixture
def log():
    return PrintLog(capacity=5, attach=False)


def test_entries_keep_call_site_cell_time_and_values(log, monkeypatch):
    monkeypatch.setattr(cells, "_current", 12)
    log.add(record("loss=0.5", values=(("loss", "f32[] 0.5"),)))
    [entry] = log.snapshot()
    assert (entry.index, entry.cell, entry.text) == (1, 12, "loss=0.5")
    assert entry.site == "model.py:7 in step"
    assert entry.summary == "loss=f32[] 0.5"
    assert entry.clock.count(":") == 2 and len(entry.clock) == 12


def test_positional_values_show_without_their_position_as_a_name(log):
    log.add(record("0 1", values=(("0", "i32[] 0"), ("scale", "f32[] 1"))))
    assert log.snapshot()[0].summary == "i32[] 0, scale=f32[] 1"


def test_ring_buffer_keeps_the_newest_and_counts_the_dropped(log):
    for i in range(12):
        log.add(record(f"i={i}"))
    assert [e.text for e in log] == [f"i={i}" for i in range(7, 12)]
    assert [e.index for e in log] == list(range(8, 13))
    assert (len(log), log.seen, log.dropped) == (5, 12, 7)


def test_capacity_can_change_keeping_the_newest(log):
    for i in range(5):
        log.add(record(f"i={i}"))
    log.capacity = 2
    assert [e.text for e in log] == ["i=3", "i=4"]
    assert (log.capacity, log.dropped) == (2, 3)
    log.capacity = 4
    log.add(record("i=5"))
    assert [e.text for e in log] == ["i=3", "i=4", "i=5"]
    with pytest.raises(ValueError, match="capacity must be a positive integer"):
        log.capacity = 0


def test_long_texts_and_summaries_are_cut(log):
    log.add(record("a" * (MAX_TEXT + 50), values=(("v", "b" * (MAX_SUMMARY * 3)),)))
    [entry] = log.snapshot()
    assert len(entry.text) == MAX_TEXT and entry.text.endswith("…")
    assert len(entry.values[0][1]) == MAX_SUMMARY


def test_filter_by_text_site_and_cell(monkeypatch):
    log = PrintLog(attach=False)
    monkeypatch.setattr(cells, "_current", 1)
    log.add(record("loss=1.0", function="train_step"))
    monkeypatch.setattr(cells, "_current", 2)
    log.add(record("grad=3.0", function="train_step"))
    log.add(record("loss=0.9", filename="/x/eval.py", function="evaluate"))
    assert [e.text for e in log.filter("LOSS")] == ["loss=1.0", "loss=0.9"]
    assert [e.text for e in log.filter(site="eval.py")] == ["loss=0.9"]
    assert [e.text for e in log.filter("loss", site="train")] == ["loss=1.0"]
    assert [e.text for e in log.filter(cell=2)] == ["grad=3.0", "loss=0.9"]


def test_newest_matches_either_site_or_text_and_counts_all_matches():
    log = PrintLog(attach=False)
    for i in range(10):
        log.add(record(f"step {i}", function="even" if i % 2 == 0 else "odd"))
    rows, matched = log.newest("even", limit=3)
    assert matched == 5
    assert [e.text for e in rows] == ["step 4", "step 6", "step 8"]
    rows, matched = log.newest("step 9", limit=3)
    assert ([e.text for e in rows], matched) == (["step 9"], 1)
    rows, matched = log.newest("", limit=2)
    assert ([e.text for e in rows], matched) == (["step 8", "step 9"], 10)


def test_a_page_pairs_its_rows_with_counts_from_the_same_moment(log, monkeypatch):
    from jaxdbg_widgets.notebook import printlog

    for i in range(3):
        log.add(record(f"i={i}"))
    build = printlog._entry

    def build_while_another_print_arrives(*kept):
        monkeypatch.setattr(printlog, "_entry", build)
        log.add(record("late"))
        return build(*kept)

    monkeypatch.setattr(printlog, "_entry", build_while_another_print_arrives)
    page = log.page("", limit=5)
    assert [e.text for e in page.entries] == ["i=0", "i=1", "i=2"]
    assert (page.seen, page.kept, page.dropped, page.matched) == (3, 3, 0, 3)
    assert log.page("", limit=5).seen == 4


def test_to_text_without_times_is_stable(log, monkeypatch):
    monkeypatch.setattr(cells, "_current", 3)
    log.add(record("a=1\nb=2"))
    assert log.to_text(times=False) == (
        "#  cell  call site           text\n1  [3]   model.py:7 in step  a=1 ⏎ b=2"
    )
    assert "time" in log.to_text().splitlines()[0]


def test_clear_forgets_and_restarts_counting(log):
    log.add(record())
    log.clear()
    log.add(record("again"))
    assert [(e.index, e.text) for e in log] == [(1, "again")]
    assert log.seen == 1


def test_listeners_hear_each_print_until_unsubscribed(log):
    heard = []
    unsubscribe = log.subscribe(lambda: heard.append(len(log)))
    log.add(record())
    log.add(record())
    unsubscribe()
    log.add(record())
    assert heard == [1, 2]


def test_concurrent_prints_are_all_counted():
    log = PrintLog(capacity=1000, attach=False)

    def burst():
        for _ in range(500):
            log.add(record())

    threads = [threading.Thread(target=burst) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (log.seen, len(log), log.dropped) == (4000, 1000, 3000)
    assert sorted(e.index for e in log) == list(range(3001, 4001))


def test_attached_log_receives_core_prints_until_closed():
    with PrintLog() as log:
        sinks.emit(record("through the sink"))
        assert log.attached
    sinks.emit(record("after close"))
    assert [e.text for e in log] == ["through the sink"]
    assert not log.attached


@pytest.mark.parametrize("capacity", [0, -1, 2.5, True, "10"])
def test_bad_capacity_is_a_value_error(capacity):
    with pytest.raises(ValueError, match="capacity must be a positive integer"):
        PrintLog(capacity=capacity, attach=False)


def test_repr_is_short_and_deterministic(log):
    log.add(record())
    assert repr(log) == "PrintLog(1 kept of 1 seen, capacity 5, closed)"

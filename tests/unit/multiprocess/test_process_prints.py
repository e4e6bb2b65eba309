"""Prints of a multi-process job: labelled lines, and a log that keeps and filters processes."""

from jaxdbg_widgets.core import processes
from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.notebook.printlog import PrintBuffer


def test_a_line_is_labelled_only_in_a_multi_process_job():
    assert processes.label_line(2, "x=1") == "[process 2] x=1"
    assert processes.label_line(None, "x=1") == "x=1"
    assert processes.process_index() is None  # this test process runs alone


def _record(text, process):
    return PrintRecord(text, "/m.py", 3, "f", 0.0, (("x", "1"),), None, None, process)


def test_the_log_keeps_each_print_process_and_filters_by_it():
    log = PrintBuffer(attach=False)
    for process in (0, 1, 10):
        log.add_from(_record(f"p{process}", process), cell=4)
    assert log.processes() == [0, 1, 10]
    assert [e.text for e in log.filter(process=1)] == ["p1"]
    assert [e.cell for e in log.snapshot()] == [4, 4, 4]
    entries, count = log.newest("process 1")
    assert ([e.text for e in entries], count) == (["p1"], 1)  # not process 10


def test_the_text_table_has_a_process_column_only_for_a_multi_process_job():
    log = PrintBuffer(attach=False)
    log.add_from(_record("alone", None), cell=1)
    assert "process" not in log.to_text(times=False).splitlines()[0]
    log.add_from(_record("from one", 1), cell=2)
    header, _alone, one = log.to_text(times=False).splitlines()
    assert header.split() == ["#", "cell", "process", "call", "site", "text"]
    assert one.split()[:3] == ["2", "[2]", "1"]

"""The print log widget without a kernel: rows, counts, the filter, and one message per refresh."""

import re

import pytest

from jaxdbg_widgets.notebook.printlog_display import PrintLog
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget
from tests.unit.notebook.records import record


class ManualThrottle:
    """Stands in for the timer so the test decides when a batch goes out."""

    def __init__(self, flush):
        self.flush = flush
        self.pokes = 0

    def poke(self):
        self.pokes += 1


class RecordingComm:
    """A comm attached to a kernel, as in a notebook, that keeps what the widget sends.

    ipywidgets sends nothing through a comm without a kernel, and a comm made outside a kernel
    has none on some ipykernel versions (6.17).
    """

    kernel = "stand-in kernel"

    def __init__(self, comm_id):
        self.comm_id = comm_id
        self.sent = []

    def on_msg(self, callback):
        pass

    def send(self, data=None, metadata=None, buffers=None):
        self.sent.append(data)

    def close(self, *args, **kwargs):
        pass


@pytest.fixture
def log():
    return PrintLog(capacity=50, attach=False)


@pytest.fixture
def widget(log, monkeypatch):
    monkeypatch.setattr(
        "jaxdbg_widgets.notebook.printlog_widget.Throttle", lambda flush, _i: ManualThrottle(flush)
    )
    widget = PrintLogWidget(log)
    own_comm = widget.comm
    widget.comm = RecordingComm(own_comm.comm_id)
    widget.sent = widget.comm.sent
    yield widget
    widget.close()
    own_comm.close()


def test_prints_only_poke_and_a_refresh_sends_one_update(log, widget):
    for i in range(100):
        log.add(record(f"i={i}"))
    assert widget.throttle.pokes == 100
    assert widget.sent == []
    widget.throttle.flush()
    [message] = widget.sent
    assert message["method"] == "update"
    assert set(message["state"]) == {"rows", "stats"}
    assert message["state"]["stats"] == {
        "seen": 100,
        "kept": 50,
        "dropped": 50,
        "matched": 50,
        "capacity": 50,
    }


def test_rows_are_the_newest_matching_entries(log, widget):
    widget.limit = 3
    for i in range(10):
        log.add(record(f"i={i}"))
    widget.refresh()
    assert [row["text"] for row in widget.rows] == ["i=7", "i=8", "i=9"]
    assert widget.rows[-1] == {
        "index": 10,
        "cell": None,
        "time": log.snapshot()[-1].clock,
        "site": "model.py:7 in step",
        "text": "i=9",
        "values": "x=f32[]",
        "arrays": 0,
        "process": None,
    }


def test_rows_name_the_process_of_a_multi_process_print(log, widget):
    log.add(record("i=0")._replace(process=2))
    widget.refresh()
    assert widget.rows[-1]["process"] == 2


def test_the_filter_box_query_refilters_at_once(log, widget):
    log.add(record("loss=1", function="train"))
    log.add(record("acc=0.5", function="evaluate"))
    widget.query = "evaluate"
    assert [row["text"] for row in widget.rows] == ["acc=0.5"]
    assert widget.stats["matched"] == 1


def test_repr_is_the_log_summary(log, widget):
    assert repr(widget) == repr(log)


def test_closing_stops_following_the_log(log, widget):
    widget.close()
    log.add(record())
    assert widget.throttle.pokes == 0


def test_the_esm_is_self_contained(widget):
    assert not re.search(r'from\s+"\./', widget._esm)
    assert 'from "data:text/javascript;base64,' in widget._esm
    assert widget._esm.rstrip().endswith("export default { initialize, render };")


def test_a_print_log_displays_as_one_output_linked_to_its_one_widget(log):
    widget = log.widget()
    assert isinstance(widget, PrintLogWidget) and log.widget() is widget
    data = log.standalone()._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html"}  # no widget view: it lasts after a restart
    assert data["text/html"].count(f'"link":"{widget.link}"') == 2  # the payload's and the state's
    widget.close()

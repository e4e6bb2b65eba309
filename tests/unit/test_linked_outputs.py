"""Pictures, a NaN report and the print log show as one standalone output that lasts through a
save, restart and reload, carrying the key of the live widget it draws over while the kernel
runs."""

from __future__ import annotations

import gc
import json
import re
import sys
import types

import jax.numpy as jnp
import numpy as np
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets._linked import Linkable
from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.nans.standalone import standalone_report
from jaxdbg_widgets.notebook import printlog_saved
from jaxdbg_widgets.notebook.printlog_display import PrintLog
from jaxdbg_widgets.notebook.printlog_standalone import BUDGET, static_table
from jaxdbg_widgets.pictures.standalone import standalone_pictures

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LINK = re.compile(r'"link":"([0-9a-f]{32})"')


def _payload(html: str) -> dict:
    data = re.search(r'<script type="application/json">(.*?)</script>', html, re.S)
    assert data is not None, html[:300]
    return json.loads(data.group(1))


def _live(link: str) -> Linkable:
    found = [w for w in gc.get_objects() if isinstance(w, Linkable) and w.link == link]
    assert len(found) == 1, link
    return found[0]


def _pictures():
    return standalone_pictures(jdw.show(np.arange(64.0).reshape(8, 8)))


def _report():
    return standalone_report(jdw.find_nonfinite(jnp.log, jnp.array([-1.0, 2.0])))


def _log():
    log = PrintLog(capacity=10, attach=False)
    log.add(PrintRecord("x=<b>1</b>", "m.py", 3, "f", 0.0, (("x", "1"),), None))
    return log.standalone()


OUTPUTS = {"pictures": _pictures, "report": _report, "log": _log}


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_the_output_is_no_widget_view_and_names_its_live_widget(name):
    data = OUTPUTS[name]()._repr_mimebundle_()
    assert WIDGET_VIEW not in data and set(data) == {"text/plain", "text/html"}
    payload = _payload(data["text/html"])
    assert payload["link"] == payload["state"]["link"]
    live = _live(payload["link"])
    assert live.comm is not None  # open: the front end creates its model while the kernel runs
    assert payload["state"].keys() <= set(live.keys)
    live.close()


def test_each_output_gets_its_own_live_widget_and_is_otherwise_the_same_bytes():
    pictures = jdw.show(np.arange(6.0))
    first, second = (standalone_pictures(pictures)._repr_mimebundle_() for _ in range(2))
    links = [LINK.search(d["text/html"]).group(1) for d in (first, second)]
    assert links[0] != links[1]
    assert LINK.sub("", first["text/html"]) == LINK.sub("", second["text/html"])
    for link in links:
        _live(link).close()


def test_a_saved_log_carries_its_rows_and_the_pictures_of_prints_with_arrays():
    log = PrintLog(capacity=10, attach=False)
    grid = np.arange(12.0).reshape(3, 4)
    log.add(PrintRecord("x=1", "m.py", 3, "f", 0.0, (("x", "1"),), None))
    log.add(PrintRecord("g=…", "m.py", 4, "f", 0.0, (grid,), None, ("g",)))
    payload = _payload(log.standalone().html)
    assert [row["text"] for row in payload["state"]["rows"]] == ["x=1", "g=…"]
    assert payload["state"]["stats"]["seen"] == 2
    target, carried = payload["derived"]["expanded"]
    assert target == "pictures" and list(carried) == ["2"]
    assert carried["2"]["view"]["pictures"][0]["title"].startswith("g")
    _live(payload["link"]).close()


def test_carried_pictures_stop_at_the_budget(monkeypatch):
    monkeypatch.setattr("jaxdbg_widgets.notebook.printlog_standalone.BUDGET", 1)
    log = PrintLog(capacity=10, attach=False)
    log.add(PrintRecord("g=…", "m.py", 4, "f", 0.0, (np.ones((3, 3)),), None, ("g",)))
    payload = _payload(log.standalone().html)
    assert payload["derived"]["expanded"][1] == {}
    assert BUDGET == 1 << 20
    _live(payload["link"]).close()


def test_the_static_table_escapes_what_was_printed():
    rows = [
        {
            "index": 1,
            "cell": 3,
            "time": "12:00:00.000",
            "site": "m.py:3 in f",
            "text": "<script>alert(1)</script>",
            "values": "",
            "arrays": 0,
            "process": None,
        }
    ]
    html = static_table(rows)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<td>[3]</td>" in html and "process" not in html


class _Handle:
    def __init__(self) -> None:
        self.updates: list[dict] = []

    def update(self, bundle: dict, raw: bool = False) -> None:
        assert raw
        self.updates.append(bundle)


def test_a_followed_log_is_rewritten_after_a_cell_that_changed_it():
    log = PrintLog(capacity=10, attach=False)
    handle = _Handle()
    printlog_saved.follow(log, handle)
    try:
        printlog_saved._rewrite()
        assert handle.updates == []  # nothing printed since it was shown
        log.add(PrintRecord("late=2", "m.py", 9, "f", 0.0, (("late", "2"),), None))
        printlog_saved._rewrite()
        [bundle] = handle.updates
        assert "late=2" in bundle["text/html"] and WIDGET_VIEW not in bundle
        printlog_saved._rewrite()
        assert len(handle.updates) == 1
        log.clear()
        printlog_saved._rewrite()
        assert len(handle.updates) == 2  # a cleared log is rewritten too
    finally:
        printlog_saved.unfollow_all()
        log.widget().close()


@pytest.fixture
def on_colab(monkeypatch):
    """A kernel whose outputs each run in a frame of their own, as Colab's do."""
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)


def test_on_colab_pictures_and_reports_show_the_live_widget(on_colab):
    for shown in (jdw.show(np.arange(6.0)), jdw.find_nonfinite(jnp.log, jnp.array([-1.0]))):
        data = shown._repr_mimebundle_()
        assert WIDGET_VIEW in data and "text/html" in data  # the widget, its static twin beside
        _widget_of(data).close()


def test_on_colab_the_log_shows_its_live_table(on_colab, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *objs, **_: shown.extend(objs))
    log = PrintLog(capacity=10, attach=False)
    log._ipython_display_()
    assert shown == [log.widget()]
    log.widget().close()


def test_outside_colab_the_notebook_gets_the_standalone_output(monkeypatch):
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)
    data = jdw.show(np.arange(6.0))._repr_mimebundle_()
    assert WIDGET_VIEW not in data
    _live(LINK.search(data["text/html"]).group(1)).close()


def _widget_of(data: dict):
    model_id = data[WIDGET_VIEW]["model_id"]
    open_ = [w for w in gc.get_objects() if isinstance(w, Linkable) and w.comm is not None]
    [widget] = [w for w in open_ if w.model_id == model_id]
    return widget

"""The notebook's watcher opens one session once the engines' hits have all arrived, and feeds
it what each engine holds afterwards."""

from __future__ import annotations

import time

from jaxdbg_widgets.multiprocess import breaks


class FakeClient:
    def __init__(self) -> None:
        self.outstanding = {"msg"}
        self.ids = [0, 1, 2]


class FakeLink:
    """Engines 0..2 as their desks answer ``state``; ``holding`` says which hold a hit."""

    def __init__(self) -> None:
        self.client = FakeClient()
        self.engines = {0: 0, 1: 1, 2: 2}
        self.holding: set[int] = set()

    def ask(self, process, request):
        hits = []
        if process in self.holding:
            device = {"label": f"CPU {process}", "state": "waiting"}
            hits = [
                {
                    "token": 1,
                    "hit": 1,
                    "location": "f (In[1]:2)",
                    "version": 0,
                    "context": "",
                    "resume": None,
                    "devices": [device],
                }
            ]
        if request["op"] == "state":
            return {"process": process, "hits": hits}
        return {**hits[0], "view": None, "rows": []} if hits else {"error": "gone", "gone": True}


def _watcher(link):
    served = []
    return breaks.Watcher(link, served.append), served


def test_the_session_waits_for_the_other_engines_then_opens_once():
    link = FakeLink()
    watcher, _ = _watcher(link)
    link.holding = {0}
    watcher.poll()
    assert watcher.session is None  # engines 1 and 2 may be about to hit
    link.holding = {0, 1, 2}
    watcher.poll()
    assert watcher.session is not None
    assert [label for _, label, _ in watcher.session.hit_rows()] == [
        f"process {p}, CPU {p}" for p in range(3)
    ]
    watcher._server.join(5)


def test_a_process_that_never_hits_does_not_hold_the_others_back():
    link = FakeLink()
    watcher, _ = _watcher(link)
    link.holding = {0, 2}
    watcher.poll()
    assert watcher.session is None
    time.sleep(breaks.QUIET_SECONDS + 0.05)
    watcher.poll()
    assert sorted(watcher.session.processes) == [0, 2]
    watcher._server.join(5)
    link.holding = {0, 1, 2}
    watcher.poll()  # a late hit of process 1 joins the open session
    assert sorted(watcher.session.processes) == [0, 1, 2]

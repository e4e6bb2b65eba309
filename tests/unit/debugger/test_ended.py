"""Ended sessions' widgets stay open, frozen, up to a bound; the oldest are closed."""

import collections

from jaxdbg_widgets.debugger.widget import ended


class Widget:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_an_ended_widget_stays_open_and_the_oldest_past_the_bound_close(monkeypatch):
    monkeypatch.setattr(ended, "_kept", collections.deque())
    monkeypatch.setattr(ended, "KEEP", 2)
    first, second, third = Widget("1"), Widget("2"), Widget("3")
    for widget in (first, second):
        ended.keep(widget)
    assert ended.kept() == [first, second] and not first.closed and not second.closed
    ended.keep(third)
    assert ended.kept() == [second, third]
    assert first.closed and not second.closed and not third.closed

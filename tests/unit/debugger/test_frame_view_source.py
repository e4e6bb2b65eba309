"""A frame whose captured source misses its current line is read again from linecache."""

from __future__ import annotations

import linecache
from types import SimpleNamespace

from jaxdbg_widgets.debugger.session.frame_view import view_frame


def test_a_blank_current_line_is_filled_from_linecache(monkeypatch):
    lines = ["with script(['c']):\n", "    print(f(x))\n"]
    monkeypatch.setitem(linecache.cache, "/tmp/cell.py", (0, None, lines, "/tmp/cell.py"))
    frame = SimpleNamespace(
        filename="/tmp/cell.py", lineno=2, source=["with script(['c']):", ""], offset=1
    )
    view = view_frame(frame)
    assert view.source == ["with script(['c']):", "    print(f(x))"]
    assert view.source[view.offset] == "    print(f(x))"


def test_a_frame_with_its_line_keeps_its_own_source():
    frame = SimpleNamespace(filename="/nowhere.py", lineno=5, source=["a", "b = 1"], offset=1)
    assert view_frame(frame).source == ["a", "b = 1"]

"""A long search shows how far it went, and Ctrl-C stops it cleanly with JAX's flags back."""

from __future__ import annotations

import io
import sys

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from jaxdbg_widgets.nans import api, find_nonfinite, loops, progress
from jaxdbg_widgets.nans.program import Level
from jaxdbg_widgets.nans.progress import SearchProgress, Ticker
from jaxdbg_widgets.nans.progress_view import TerminalLine, progress_html, progress_sink
from jaxdbg_widgets.nans.report import SourceLine

LINE = SourceLine("model.py", 12, "step", "    y = jnp.log(x)\n")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _ticker(total: int = 500) -> tuple[Ticker, Clock, list[SearchProgress]]:
    clock, shown = Clock(), []
    return Ticker("f", total, shown.append, clock), clock, shown


def test_a_reading_says_how_far_the_search_went_and_where_it_is():
    reading = SearchProgress("loss", 5000, 1200, 2.14, LINE)
    assert reading.text() == (
        "find_nonfinite(loss) 1,200 equations checked (program: 5,000, loops counted once) "
        "in 2.1 s, at model.py:12 in step: y = jnp.log(x)"
    )
    assert SearchProgress("loss", 9, 9, 3.0, LINE, "done").text() == (
        "find_nonfinite(loss) done: 9 equations checked (program: 9, loops counted once) in 3.0 s"
    )
    stopped = SearchProgress("loss", 9, 4, 1.0, LINE, "interrupted").text()
    assert stopped.startswith("find_nonfinite(loss) interrupted: 4 equations checked")
    assert stopped.endswith(", at model.py:12 in step: y = jnp.log(x)")


def test_nothing_is_shown_before_a_second_and_a_hundred_equations():
    ticker, clock, shown = _ticker()
    ticker.add(500, lambda: LINE)
    clock.now += 0.9
    ticker.add(1, lambda: LINE)
    assert shown == []
    assert ticker.finish("done").checked == 501
    assert shown == []  # never shown, so the final reading is not shown either


def test_a_small_search_is_never_shown_however_slow():
    ticker, clock, shown = _ticker()
    clock.now += 30.0
    ticker.add(progress.MIN_EQUATIONS - 1, lambda: LINE)
    assert shown == []


def test_readings_come_at_most_every_interval_then_the_final_one():
    ticker, clock, shown = _ticker()
    clock.now += progress.DELAY
    ticker.add(200, lambda: LINE)
    clock.now += progress.INTERVAL / 2
    ticker.add(50, lambda: LINE)
    clock.now += progress.INTERVAL
    ticker.add(50, lambda: None)
    assert [(r.checked, r.line) for r in shown] == [(200, LINE), (300, None)]
    assert shown[0].seconds == pytest.approx(progress.DELAY)
    final = ticker.finish("interrupted")
    assert shown[-1] == final and final.state == "interrupted" and final.checked == 300


def test_a_search_ends_done_or_interrupted():
    ticker, _, _ = _ticker()
    with pytest.raises(ValueError, match="ends done or interrupted, not 'running'"):
        ticker.finish("running")


def test_the_html_line_has_a_bar_while_the_count_fits_the_program():
    html = progress_html(SearchProgress("f<g>", 100, 40, 1.0, LINE))
    assert '<progress max="100" value="40"></progress>' in html and "f&lt;g&gt;" in html
    looping = progress_html(SearchProgress("f", 100, 4000, 1.0, LINE))
    assert '<progress max="100"></progress>' in looping  # loops: no fraction to show
    assert "<progress" not in progress_html(SearchProgress("f", 100, 40, 1.0, None, "done"))


def test_the_terminal_line_is_rewritten_in_place_and_ended_once():
    stream = io.StringIO()
    line = TerminalLine(stream)
    line(SearchProgress("f", 500, 120, 1.0, LINE))
    line(SearchProgress("f", 500, 130, 1.3, None))
    line(SearchProgress("f", 500, 140, 1.5, None, "done"))
    parts = stream.getvalue().split("\r")[1:]
    assert len(parts) == 3 and parts[-1].endswith("\n") and "\n" not in "".join(parts[:2])
    assert len(parts[1]) >= len(parts[0])  # a shorter reading blanks the longer one's tail
    assert parts[2].startswith("find_nonfinite(f) done: 140 equations checked")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_standard_error_that_is_no_terminal_gets_whole_lines_and_no_carriage_return(
    monkeypatch,
):
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    sink = progress_sink()
    for seconds in (1.0, 1.3, 5.0, 11.5, 12.0):
        sink(SearchProgress("f", 500, int(seconds * 100), seconds, LINE))
    sink(SearchProgress("f", 500, 1250, 12.5, None, "done"))
    text = log.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert [line.split(" equations")[0] for line in lines] == [
        "find_nonfinite(f) 100",
        "find_nonfinite(f) 1,150",
        "find_nonfinite(f) done: 1,250",
    ]
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert isinstance(progress_sink(), TerminalLine)


def _long_program(n: int):
    def body(state):
        i, value = state
        return i + 1, value + jnp.log(jnp.float32(n - 1) - i.astype(jnp.float32))  # log(0) last

    return lambda x: lax.while_loop(lambda s: s[0] < n, body, (0, x))[1]


@pytest.fixture
def shown(monkeypatch):
    readings: list[SearchProgress] = []
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    monkeypatch.setattr(api, "progress_sink", lambda: readings.append)
    return readings


def test_a_long_search_reports_its_count_and_line_and_ends_done(shown):
    report = find_nonfinite(_long_program(60), 0.0)
    assert report.origin.path == ("while iteration 59",)
    counts = [r.checked for r in shown]
    assert counts == sorted(counts) and counts[0] >= progress.MIN_EQUATIONS
    assert {r.state for r in shown[:-1]} == {"running"} and shown[-1].state == "done"
    assert shown[-1].checked >= report.equations_checked
    assert (
        shown[-2].line is not None and shown[-2].line.function == "_long_program.<locals>.<lambda>"
    )


def test_a_short_search_shows_nothing_with_the_default_thresholds(monkeypatch):
    readings: list[SearchProgress] = []
    monkeypatch.setattr(api, "progress_sink", lambda: readings.append)
    find_nonfinite(_long_program(4), 0.0)
    assert readings == []


def test_ctrl_c_stops_the_search_with_how_far_it_went_and_jax_s_flags_back(shown, monkeypatch):
    calls = {"n": 0}
    run = Level.run

    def interrupted_after_a_while(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 40:  # within the iterations
            raise KeyboardInterrupt
        return run(self, *args, **kwargs)

    monkeypatch.setattr(Level, "run", interrupted_after_a_while)
    monkeypatch.setattr(loops, "FAST_AFTER", 10**6)  # every iteration one call at a time
    jax.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(
            KeyboardInterrupt, match=r"find_nonfinite\(<lambda>\) stopped after "
        ) as info:
            find_nonfinite(_long_program(200), 0.0)
        assert info.value.__context__ is None  # nothing keeps the search's frames and values
        assert jax.config.jax_debug_nans
    finally:
        jax.config.update("jax_debug_nans", False)
    assert shown[-1].state == "interrupted"
    monkeypatch.setattr(Level, "run", run)
    assert find_nonfinite(_long_program(5), 0.0).origin.path == ("while iteration 4",)

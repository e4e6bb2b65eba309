"""The one display hook: every result class gives each renderer its base declares."""

from __future__ import annotations

import inspect
import io
from dataclasses import dataclass

import pytest
import rich.console

from jaxdbg_widgets._display import Display, LinkedDisplay, MapDisplay, StandaloneDisplay
from jaxdbg_widgets.comms.display import CommunicationMap
from jaxdbg_widgets.compiles.display import CompileReportView
from jaxdbg_widgets.memory.display import MemoryMap
from jaxdbg_widgets.memory.peak_display import PeakMemory
from jaxdbg_widgets.nans.display import NonfiniteReportView
from jaxdbg_widgets.pictures.display import Pictures

RESULTS = [
    CommunicationMap,
    CompileReportView,
    MemoryMap,
    PeakMemory,
    NonfiniteReportView,
    Pictures,
]


@pytest.mark.parametrize("result", RESULTS, ids=[r.__name__ for r in RESULTS])
def test_every_result_class_gives_every_renderer(result):
    assert issubclass(result, Display)
    assert not inspect.isabstract(result), result.__abstractmethods__


@pytest.mark.parametrize("base", [StandaloneDisplay, MapDisplay, LinkedDisplay])
def test_a_result_that_leaves_a_renderer_out_cannot_be_made(base):
    class Partial(base):
        def to_text(self) -> str:
            return "text"

    with pytest.raises(TypeError, match="abstract"):
        Partial()


def test_outside_a_kernel_a_result_is_its_html_and_text(monkeypatch):
    class Plain(Display):
        def to_text(self) -> str:
            return "a"

        def to_html(self) -> str:
            return "<b>a</b>"

    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: False)
    assert str(Plain()) == "a"
    assert Plain()._repr_mimebundle_() == {"text/plain": "a", "text/html": "<b>a</b>"}


def rich_text(value) -> str:
    """What ``rich.print`` shows of ``value``, without colour."""
    buffer = io.StringIO()
    rich.console.Console(file=buffer, width=120, color_system=None).print(value)
    return buffer.getvalue()


def test_rich_shows_a_result_as_its_text_not_as_markup_or_fields():
    @dataclass
    class Report(Display):
        code: str

        def to_text(self) -> str:
            return f"line 3: {self.code}"

        def to_html(self) -> str:
            return ""

    code = "y = keep[jnp.arange(10)] + x[bold] * w[/bold] :smile:"
    assert rich_text(Report(code)) == f"line 3: {code}\n"

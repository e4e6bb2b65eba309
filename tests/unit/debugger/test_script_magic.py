"""``%jaxdbg script``: queue, show and clear scripted commands."""

from __future__ import annotations

import pytest

from jaxdbg_widgets.debugger.serve import scripts
from jaxdbg_widgets.notebook import commands


@pytest.fixture(autouse=True)
def _no_queue():
    scripts.clear_queue()
    yield
    scripts.clear_queue()


def test_queue_show_and_clear(capsys):
    commands.run("script p x; u ; c")
    assert capsys.readouterr().out == "script: 3 command(s) queued for the next breakpoints\n"
    commands.run("script")
    assert capsys.readouterr().out == "script: p x; u; c\n"
    commands.run("script off")
    assert scripts.active() is None
    commands.run("script")
    assert capsys.readouterr().out.endswith("script: nothing queued\n")


def test_empty_script_is_a_usage_error():
    with pytest.raises(commands.UsageError, match="needs jdb commands"):
        commands.run("script ; ;")


def test_script_completes_off():
    assert commands.complete("%jaxdbg script o") == ["off"]

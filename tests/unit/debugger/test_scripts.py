"""Scripted answers: parsing, scoping and the queue used by ``%jaxdbg script``."""

from __future__ import annotations

import pytest

from jaxdbg_widgets.debugger import scripts


@pytest.fixture(autouse=True)
def _no_queue():
    scripts.clear_queue()
    yield
    scripts.clear_queue()


def test_parse_accepts_lists_and_separated_strings():
    assert scripts.parse_commands(["p x", " u ", ""]) == ["p x", "u"]
    assert scripts.parse_commands("p x; u\npp y;;c") == ["p x", "u", "pp y", "c"]
    with pytest.raises(TypeError, match="must be strings"):
        scripts.parse_commands(["p x", 3])
    with pytest.raises(TypeError, match="list of strings or one string"):
        scripts.parse_commands(5)


def test_script_is_active_only_inside_the_block():
    assert scripts.active() is None
    with scripts.script(["p x", "c"]) as outer:
        assert scripts.active() is outer
        with scripts.script("c") as inner:
            assert scripts.active() is inner
        assert scripts.active() is outer
        assert outer.next_command() == "p x"
        assert outer.remaining == ["c"]
    assert scripts.active() is None


def test_queue_lasts_until_used_up():
    queued = scripts.queue("p x; c")
    assert scripts.active() is queued
    assert queued.next_command() == "p x"
    assert queued.next_command() == "c"
    assert queued.next_command() is None
    assert scripts.active() is None


def test_a_scoped_script_beats_the_queue():
    scripts.queue("c")
    with scripts.script("q") as scoped:
        assert scripts.active() is scoped

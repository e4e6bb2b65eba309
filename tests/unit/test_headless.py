"""The headless policy: process override, then ``$JAXDBG_HEADLESS``, then ``continue``."""

import pytest

from jaxdbg_widgets.debugger.serve import headless


@pytest.fixture(autouse=True)
def _reset_policy():
    yield
    headless.set_policy(None)


def test_default_is_continue(monkeypatch):
    monkeypatch.delenv(headless.ENV_VAR, raising=False)
    assert headless.current_policy() is headless.HeadlessPolicy.CONTINUE


def test_environment_variable_chooses(monkeypatch):
    monkeypatch.setenv(headless.ENV_VAR, " Raise ")
    assert headless.current_policy() is headless.HeadlessPolicy.RAISE


def test_bad_environment_variable_warns_and_continues(monkeypatch):
    monkeypatch.setenv(headless.ENV_VAR, "explode")
    with pytest.warns(UserWarning, match="explode"):
        assert headless.current_policy() is headless.HeadlessPolicy.CONTINUE


def test_override_beats_environment(monkeypatch):
    monkeypatch.setenv(headless.ENV_VAR, "raise")
    headless.set_policy(headless.HeadlessPolicy.SCRIPT)
    assert headless.current_policy() is headless.HeadlessPolicy.SCRIPT

"""A FloatingPointError from JAX's NaN checks opens the debugger post-mortem on its user frames."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.debugger.install import cell_errors
from jaxdbg_widgets.debugger.serve import backend, headless, post_mortem, scripts
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd
from jaxdbg_widgets.debugger.transports.capability import Tier


@pytest.fixture
def nans_on():
    before = jax.config.jax_debug_nans
    jax.config.update("jax_debug_nans", True)
    yield
    jax.config.update("jax_debug_nans", before)


@pytest.fixture
def headless_backend(monkeypatch):
    front_end = FrontEnd(
        detect_tier=lambda: Tier.HEADLESS,
        open_inbox=None,
        read_line=lambda prompt: None,
        display=lambda widget: lambda obj: None,
    )
    monkeypatch.setattr(backend, "debugger_backend", backend.make_backend(lambda: front_end))
    backend.new_run()
    headless.set_policy(None)
    monkeypatch.delenv(headless.ENV_VAR, raising=False)


def log_of(x):
    scaled = x * 2.0
    return jnp.log(scaled)


def _floating_point_error() -> tuple[FloatingPointError, object]:
    try:
        jax.jit(log_of)(jnp.array([-1.0, 1.0]))
    except FloatingPointError as error:
        return error, error.__traceback__
    raise AssertionError("no FloatingPointError")


def _plain(stb: list[str]) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", "".join(stb))


def test_user_frames_are_innermost_first_with_locals(nans_on):
    _, tb = _floating_point_error()
    frames = post_mortem.user_frames(tb)
    assert [f.function for f in frames[:2]] == ["log_of", "_floating_point_error"]
    assert frames[0].source[frames[0].offset].strip() == "return jnp.log(scaled)"
    assert float(frames[0].locals["scaled"][0]) == -2.0


def test_scripted_post_mortem_then_short_error(shell, nans_on, headless_backend, capsys):
    undo = cell_errors.install(shell)
    error, tb = _floating_point_error()
    scripts.queue(["p scaled", "c"])
    try:
        shell.CustomTB(type(error), error, tb)
    finally:
        scripts.clear_queue()
        undo()
    out = capsys.readouterr().out
    assert "Post-mortem at log_of" in out
    assert "Breakpoint" not in out
    assert "(jdb) p scaled\nArray([-2.,  2.], dtype=float32)" in out
    etype, value, stb = shell.shown[-1]
    assert etype is FloatingPointError and value is error
    # JAX's own wording varies: JAX 0.12 names the op or, when an earlier test left log's
    # executable cached, says the de-optimized re-run found nothing.
    assert _plain(stb).startswith(f"FloatingPointError: {str(error).splitlines()[0][:60]}")


def _shown_tracebacks(shell, monkeypatch) -> list[tuple[object, object]]:
    """What the cell handler hands to IPython's usual traceback display."""
    shown: list[tuple[object, object]] = []
    monkeypatch.setattr(
        shell, "showtraceback", lambda exc_tuple, tb_offset=None: shown.append(exc_tuple)
    )
    return shown


def test_an_unattended_run_opens_no_post_mortem_and_keeps_the_traceback(
    shell, nans_on, headless_backend, capsys, monkeypatch
):
    tracebacks = _shown_tracebacks(shell, monkeypatch)
    served = []
    monkeypatch.setattr(backend, "debugger_backend", lambda frames, thread_id: served.append(1))
    monkeypatch.setattr(post_mortem, "someone_can_answer", lambda: False)
    undo = cell_errors.install(shell)
    error, tb = _floating_point_error()
    capsys.readouterr()  # JAX's own notice that it re-runs the function op by op
    shell.CustomTB(type(error), error, tb)
    undo()
    assert capsys.readouterr() == ("", "")
    assert served == [] and shell.shown == []
    assert tracebacks == [(FloatingPointError, error, tb)], "JAX's traceback, as it was raised"


def test_the_script_headless_policy_answers_a_post_mortem(
    shell, nans_on, headless_backend, capsys, monkeypatch
):
    monkeypatch.setenv(headless.ENV_VAR, "script")
    monkeypatch.setenv(headless.SCRIPT_ENV_VAR, "p scaled; c")
    undo = cell_errors.install(shell)
    error, tb = _floating_point_error()
    capsys.readouterr()
    shell.CustomTB(type(error), error, tb)
    undo()
    out = capsys.readouterr().out
    assert out.startswith("Post-mortem at log_of")
    assert "(jdb) p scaled" in out
    assert shell.shown[-1][1] is error


def test_a_front_end_that_cannot_answer_names_the_post_mortem(nans_on, headless_backend, capsys):
    error, tb = _floating_point_error()
    assert post_mortem.debug(error, tb, backend.debugger_backend, answerable=lambda: True)
    assert "jaxdbg: post-mortem at log_of (" in capsys.readouterr().out


def test_quit_ends_the_post_mortem_and_still_shows_the_error(
    shell, nans_on, headless_backend, capsys
):
    undo = cell_errors.install(shell)
    error, tb = _floating_point_error()
    scripts.queue(["q"])
    try:
        shell.CustomTB(type(error), error, tb)
    finally:
        scripts.clear_queue()
        undo()
    assert shell.shown[-1][1] is error


def test_checks_off_keeps_the_usual_traceback(shell, monkeypatch):
    calls = []
    monkeypatch.setattr(
        shell, "showtraceback", lambda exc_tuple, tb_offset=None: calls.append(exc_tuple)
    )
    served = []
    monkeypatch.setattr(backend, "debugger_backend", lambda frames, thread_id: served.append(1))
    undo = cell_errors.install(shell)
    error = FloatingPointError("nan")
    shell.CustomTB(type(error), error, None)
    undo()
    assert calls and calls[0][1] is error and not served


def test_undo_restores_the_previous_handler(shell):
    before = (shell.custom_exceptions, shell.CustomTB)
    undo = cell_errors.install(shell)
    assert FloatingPointError in shell.custom_exceptions
    undo()
    assert (shell.custom_exceptions, shell.CustomTB) == before


def test_a_with_script_left_by_the_error_answers_its_post_mortem(
    shell, nans_on, headless_backend, capsys
):
    undo = cell_errors.install(shell)
    try:
        with scripts.script(["p scaled", "c"]):
            jax.jit(log_of)(jnp.array([-1.0, 1.0]))
    except FloatingPointError as error:
        shell.CustomTB(type(error), error, error.__traceback__)
    finally:
        undo()
    out = capsys.readouterr().out
    assert "(jdb) p scaled\nArray([-2.,  2.], dtype=float32)" in out
    assert scripts.active() is None


def test_an_unrelated_error_does_not_revive_a_finished_script():
    with pytest.raises(ValueError), scripts.script(["c"]):
        raise ValueError("boom")
    with scripts.resumed_for(RuntimeError("other")):
        assert scripts.active() is None

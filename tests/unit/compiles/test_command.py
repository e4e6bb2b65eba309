"""``%jaxdbg compiles``: the kernel-wide report the extension records, without a kernel."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.compiles import command, recorder
from jaxdbg_widgets.notebook import commands, features


@pytest.fixture
def kernel_report():
    command.KERNEL_REPORT.clear()
    stop = command.install(None)
    yield command.KERNEL_REPORT
    stop()
    command.KERNEL_REPORT.clear()


def test_the_extension_installs_the_recorder_with_its_undo():
    assert any(install is command.install for _, install in features.FEATURES)
    undo = command.install(None)
    assert command.recording()
    undo()
    assert not command.recording() and recorder.active() == ()


def test_compiles_shows_the_kernel_report(kernel_report, capsys, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    jax.jit(lambda batch: batch * 4)(jnp.ones((3, 2)))
    commands.run("compiles")
    [report] = shown
    assert report is kernel_report and report.count("compile") >= 1
    assert "<lambda>" in report.to_text()


def test_compiles_clear_empties_it(kernel_report, capsys):
    jax.jit(lambda x: x * 9)(jnp.ones(2))
    assert kernel_report.programs
    commands.run("compiles clear")
    assert kernel_report.programs == [] and "cleared" in capsys.readouterr().out


def test_anything_else_is_a_usage_error():
    with pytest.raises(commands.UsageError, match="compiles takes nothing or 'clear'"):
        commands.run("compiles sometimes")


def test_completion_offers_clear():
    assert commands.complete("%jaxdbg compiles ") == ["clear"]

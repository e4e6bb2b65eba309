"""``%jaxdbg cluster compiles``: every engine's compile report joined in the notebook; engines
stood in for by a view whose ``apply_sync`` answers with parts this process recorded."""

from __future__ import annotations

import pickle

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.compiles import command as compiles_command
from jaxdbg_widgets.multiprocess import command
from jaxdbg_widgets.multiprocess.compiles import cluster_compiles, engine_programs


class _View:
    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def apply_sync(self, function, *args):
        self.calls.append(function.__name__)
        return self.answers


@pytest.fixture
def part():
    """This process's part after one function compiled for two batch shapes."""
    four, five = jnp.ones((4, 2)), jnp.ones((5, 2))
    compiles_command.KERNEL_REPORT.clear()
    stop = compiles_command.install(None)
    try:
        step = jax.jit(lambda batch: batch * 3)
        step(four)
        step(five)
        yield engine_programs()
    finally:
        stop()
        compiles_command.KERNEL_REPORT.clear()


def test_each_process_programs_join_one_report_named_by_their_process(part):
    travelled = pickle.loads(pickle.dumps(part))  # what crosses from an engine
    view = _View([{**travelled, "process": 1}, travelled])
    report = cluster_compiles(view=view)
    assert view.calls == ["engine_programs"]
    # only the step: JAX's own eager operations may compile too (JAX 0.7's multiply)
    names = {row.name for row in report.rows() if "<lambda>" in row.name}
    assert names == {"p0: part.<locals>.<lambda>", "p1: part.<locals>.<lambda>"}
    recompiled = [p for p in report.recompiles() if "<lambda>" in p.name]
    assert [p.name.split(":")[0] for p in recompiled] == ["p0", "p1"]
    assert all("batch: f32[4,2] → f32[5,2]" in p.cause_text() for p in recompiled)
    first_of_p1 = report.programs[recompiled[1].compared_with]
    assert first_of_p1.name.startswith("p1") and first_of_p1.first
    assert "p1: part.<locals>.<lambda>" in report.to_text()


def test_an_engine_recording_nothing_is_named(part):
    silent = {**part, "process": 2, "recording": False}
    with pytest.raises(ValueError, match="process 2 records no compiles"):
        cluster_compiles(view=_View([part, silent]))


def test_the_magic_shows_the_report_and_refuses_more_words(part, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    monkeypatch.setattr("jaxdbg_widgets.multiprocess.job.current_view", lambda: _View([part]))
    assert command.run(["compiles"], {}) is None
    [report] = shown
    assert "p0: part.<locals>.<lambda>" in {row.name for row in report.rows()}
    with pytest.raises(ValueError, match="takes nothing more"):
        command.run(["compiles", "now"], {})

"""``%jaxdbg cluster N [DEVICES]`` parses its words, calls ``jaxdbg_widgets.cluster`` and binds
``rc``; bad words are one-line usage errors."""

import pytest

from jaxdbg_widgets.multiprocess import command
from jaxdbg_widgets.notebook import commands


@pytest.mark.parametrize(
    ("words", "parsed"),
    [(["4"], (4, 2)), (["2", "1"], (2, 1)), (["3", "none"], (3, None)), (["1", "NONE"], (1, None))],
)
def test_the_words_give_engines_and_devices(words, parsed):
    assert command.parse(words) == parsed


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([], "cluster takes the number of engines"),
        (["0"], "the number of engines must be a whole number of at least 1, not '0'"),
        (["four"], "not 'four'"),
        (["2", "-1"], "the devices per engine must be a whole number"),
        (["2", "2", "2"], "cluster takes the number of engines"),
    ],
)
def test_bad_words_are_refused_with_the_reason(words, message):
    with pytest.raises(ValueError, match=message):
        command.parse(words)


def test_run_starts_the_job_and_binds_rc(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(
        command, "cluster", lambda n, devices: started.append((n, devices)) or "client"
    )
    namespace = {}
    assert command.run(["4", "2"], namespace) == "client"
    assert started == [(4, 2)] and namespace == {"rc": "client"}
    assert capsys.readouterr().out.startswith("rc: 4 ipyparallel engines, 2 CPU devices each")


def test_the_magic_reports_bad_words_as_a_usage_error():
    with pytest.raises(commands.UsageError, match="at least 1"):
        commands.run("cluster 0")

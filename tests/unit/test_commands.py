"""The ``%jaxdbg`` subcommand table, driven without a kernel."""

from dataclasses import replace

import pytest

from jaxdbg_widgets.debugger.serve import headless, scripts
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.notebook import commands
from jaxdbg_widgets.notebook.status import summarize_devices


@pytest.fixture(autouse=True)
def _reset_policy():
    yield
    headless.set_policy(None)


def test_help_lists_every_subcommand(capsys):
    commands.run("help")
    out = capsys.readouterr().out
    for name in commands.COMMANDS:
        assert f"%jaxdbg {name}" in out


def test_unknown_subcommand_is_a_usage_error():
    with pytest.raises(commands.UsageError, match="unknown subcommand 'frobnicate'"):
        commands.run("frobnicate now")


def test_empty_line_is_a_usage_error():
    with pytest.raises(commands.UsageError):
        commands.run("   ")


def test_status_reports_versions_devices_backend_and_tier(capsys):
    commands.run("status")
    out = capsys.readouterr().out
    for label in (
        "jaxdbg-widgets",
        "jax ",
        "jaxlib",
        "ipykernel",
        "devices",
        "default backend",
        "widget transport",
        "this request",
        "headless policy",
    ):
        assert label in out
    assert "8: CPU 0-7 (process 0)" in out


def test_status_rejects_arguments():
    with pytest.raises(commands.UsageError, match="no arguments"):
        commands.run("status now")


def test_headless_sets_and_reports_the_policy(capsys):
    commands.run("headless raise")
    assert headless.current_policy() is headless.HeadlessPolicy.RAISE
    commands.run("headless")
    assert "headless policy: raise (" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("tier", "said"),
    [
        (capability.Tier.HEADLESS, "applies now: no front end can answer here"),
        (capability.Tier.SUBSHELL, "not now: a breakpoint here waits for your answer"),
        (capability.Tier.STDIN, "not now: a breakpoint here waits for your answer"),
    ],
)
def test_the_policy_line_says_whether_it_applies_to_the_running_cell(
    capsys, monkeypatch, tier, said
):
    monkeypatch.setattr(capability, "detect_tier", lambda kernel=None: tier)
    commands.run("headless")
    assert capsys.readouterr().out == f"headless policy: continue ({said})\n"


def test_headless_rejects_unknown_policies():
    with pytest.raises(commands.UsageError, match=r"continue\|raise\|script"):
        commands.run("headless sometimes")
    assert headless.current_policy() is headless.HeadlessPolicy.CONTINUE


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%jaxdbg ", sorted(commands.COMMANDS)),
        ("%jaxdbg st", ["status"]),
        ("%jaxdbg headless ", ["continue", "raise", "script"]),
        ("%jaxdbg headless r", ["raise"]),
        ("%jaxdbg nosuch ", []),
    ],
)
def test_completion(line, expected):
    assert sorted(commands.complete(line)) == sorted(expected)


def test_devices_are_grouped_by_platform_and_process():
    names = [f"CPU {i} (process {i // 4})" for i in range(8)] + ["TPU 9 (process 1)"]
    assert (
        summarize_devices(names) == "9: CPU 0-3 (process 0); CPU 4-7 (process 1); TPU 9 (process 1)"
    )


def test_a_failed_script_line_leaves_the_queued_script_alone(capsys):
    commands.run("script p x; c")
    try:
        with pytest.raises(commands.UsageError):
            commands.run("script ; ;")
        assert scripts.queued().remaining == ["p x", "c"]
    finally:
        scripts.clear_queue()


@pytest.mark.parametrize(
    "line",
    ["nans sideways", "memory 1 +", "peak not_a_call(", "comms 3", "compiles forget", "log burn"],
)
def test_words_a_subcommand_cannot_use_are_a_usage_error(line):
    with pytest.raises(commands.UsageError):
        commands.run(line)


def test_an_error_a_subcommand_does_not_name_as_misuse_keeps_its_traceback(monkeypatch):
    def broken(args):
        raise KeyError("a bug, not a typo")

    monkeypatch.setitem(
        commands.COMMANDS, "memory", replace(commands.COMMANDS["memory"], run=broken)
    )
    with pytest.raises(KeyError, match="a bug"):
        commands.run("memory x")

"""``%jaxdbg help`` fits the width front ends show without wrapping a word in two."""

from __future__ import annotations

from jaxdbg_widgets.notebook import commands


def test_every_help_line_fits_and_breaks_only_between_words():
    lines = commands.help_text().splitlines()
    assert max(map(len, lines)) <= commands.HELP_WIDTH
    words = " ".join(line.strip() for line in lines).split()
    for cmd in commands.COMMANDS.values():
        assert " ".join(cmd.summary.split()) in " ".join(words), cmd.name
        assert any(line.startswith(cmd.usage) for line in lines), cmd.usage


def test_a_long_usage_stands_on_its_own_line_above_its_summary():
    lines = commands.help_text().splitlines()
    cluster = next(i for i, line in enumerate(lines) if line.startswith("%jaxdbg cluster"))
    assert lines[cluster] == commands.COMMANDS["cluster"].usage
    assert lines[cluster + 1].lstrip().startswith("N ipyparallel engines")

"""The saved report's own style: bullets inside the page, source lines that never wrap."""

from __future__ import annotations

import re

from jaxdbg_widgets.nans.html import STYLE


def _rule(selector: str) -> str:
    match = re.search(re.escape(selector) + r"\{([^}]*)\}", STYLE)
    assert match, f"no rule for {selector}"
    return match.group(1)


def test_the_facts_bullets_sit_inside_the_lists_own_padding():
    padding = re.search(r"padding:([^;]+)", _rule(".jdw-nan-facts")).group(1).split()
    assert re.fullmatch(r"[1-9][\d.]*(em|px)", padding[-1]), padding


def test_source_lines_keep_their_indentation_and_scroll_instead_of_wrapping():
    rule = _rule(".jdw-nan pre")
    assert "white-space:pre;" in rule + ";" and "overflow-x:auto" in rule

"""docs/debugger.md quotes the interrupt line a waiting breakpoint really ends with."""

import pathlib
import re

import pytest

from jaxdbg_widgets.debugger.transports.mailbox import Mailbox

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "debugger.md"


def _interrupted_line() -> str:
    """The line a kernel interrupt of a breakpoint waiting on the widget's mailbox shows."""
    mailbox = Mailbox()
    mailbox.interrupt()
    with pytest.raises(KeyboardInterrupt) as raised:
        mailbox.take(timeout=1.0)
    return f"KeyboardInterrupt: {raised.value}"


def test_every_quoted_interrupt_line_is_the_one_the_code_prints():
    quoted = re.findall(r"`(KeyboardInterrupt: [^`]+)`", DOC.read_text(encoding="utf-8"))
    assert quoted, "docs/debugger.md quotes no interrupt line"
    assert set(quoted) == {_interrupted_line()}

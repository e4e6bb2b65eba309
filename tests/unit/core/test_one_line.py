"""An exception shown in one line, by one function everywhere in the package."""

from __future__ import annotations

import ast
from pathlib import Path

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets.core.errors import one_line

PACKAGE = Path(__file__).resolve().parents[3] / "jaxdbg_widgets"
HOME = PACKAGE / "core" / "errors.py"

CALLBACK_FAILURE = (
    "INTERNAL: CpuCallback error calling callback: Traceback (most recent call last):\n"
    '  File "<jaxdbg_widgets host call 3>", line 4, in call\n'
    "ValueError: negative input\n"
)


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")


def test_type_and_first_line_of_the_message():
    assert one_line(ValueError("bad value\nsecond line")) == "ValueError: bad value"
    assert one_line(KeyError("k")) == "KeyError: 'k'"


def test_a_message_that_is_empty_or_blank_gives_the_type_alone():
    assert one_line(RuntimeError()) == "RuntimeError"
    assert one_line(RuntimeError("\n  \n")) == "RuntimeError"


def test_a_leading_blank_line_is_skipped():
    assert one_line(TypeError("\n  expected str\n")) == "TypeError: expected str"


def test_a_callback_traceback_in_the_message_gives_the_callbacks_own_exception():
    assert one_line(RuntimeError(CALLBACK_FAILURE)) == "ValueError: negative input"


def test_an_unprintable_message_is_said_to_be_so():
    assert one_line(Unprintable()) == "Unprintable: <exception message could not be shown>"


def test_a_failed_capability_check_records_the_same_line(monkeypatch):
    monkeypatch.setattr(_capabilities, "_table", {})

    def probe():
        raise AttributeError("\nmodule 'x' has no attribute 'y'\nmore")

    reason = _capabilities.check("jax", "t", "f", probe).reason
    assert reason == "AttributeError: module 'x' has no attribute 'y'"


def _formats_an_exception(tree: ast.Module) -> list[int]:
    """Lines of f-strings that write ``{type(err).__name__}`` of a caught ``err`` themselves."""
    caught = {
        node.name for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler) and node.name
    }
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for part in node.values:
            value = part.value if isinstance(part, ast.FormattedValue) else None
            if (
                isinstance(value, ast.Attribute)
                and value.attr == "__name__"
                and isinstance(value.value, ast.Call)
                and isinstance(value.value.func, ast.Name)
                and value.value.func.id == "type"
                and value.value.args
                and isinstance(value.value.args[0], ast.Name)
                and value.value.args[0].id in caught
            ):
                lines.append(node.lineno)
    return lines


def test_no_module_writes_its_own_one_line_error():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == HOME:
            continue
        tree = ast.parse(path.read_text(), str(path))
        own = [
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef) and "one_line" in n.name
        ]
        lines = _formats_an_exception(tree) + [f"def {name}" for name in own]
        if lines:
            found[str(path.relative_to(PACKAGE))] = lines
    assert found == {}, "use jaxdbg_widgets.core.errors.one_line"

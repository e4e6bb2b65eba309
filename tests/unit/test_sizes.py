"""Every product module fits in 600 lines and every function in 80, in Python and in the front
end, so each reads on a screen or two."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 600
FUNCTION_LINES = 80
_JS_FUNCTION = re.compile(r"^(\s*)(?:export\s+)?(?:async\s+)?function\s*\*?\s*(\w+)")


def _python_modules() -> list[Path]:
    return sorted([*ROOT.joinpath("jaxdbg_widgets").rglob("*.py"), *ROOT.glob("jaxdbg/*.py")])


def _js_modules() -> list[Path]:
    return sorted(ROOT.joinpath("js").glob("*.js"))


def _too_long_modules(paths: list[Path]) -> list[str]:
    lengths = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in paths}
    return [f"{path.relative_to(ROOT)}: {n}" for path, n in lengths.items() if n > MODULE_LINES]


def _python_functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]


def _js_functions(source: str) -> list[tuple[str, int]]:
    """Each ``function`` declaration's length: from its line to the closing brace at its indent
    (the modules are formatted, so a declaration closes at the column it opened)."""
    lines = source.splitlines()
    found = []
    for start, line in enumerate(lines):
        match = _JS_FUNCTION.match(line)
        if match is None:
            continue
        close = match.group(1) + "}"
        end = next((i for i in range(start, len(lines)) if lines[i].rstrip() == close), None)
        assert end is not None, f"function {match.group(2)} never closes at its indent"
        found.append((match.group(2), end - start + 1))
    return found


def test_no_product_module_is_over_600_lines():
    assert _too_long_modules(_python_modules()) == []
    assert _too_long_modules(_js_modules()) == []


def test_no_python_function_is_over_80_lines():
    long = [
        f"{path.relative_to(ROOT)}:{name} ({n} lines)"
        for path in _python_modules()
        for name, n in _python_functions(path)
        if n > FUNCTION_LINES
    ]
    assert long == []


def test_no_js_function_is_over_80_lines():
    long = [
        f"{path.relative_to(ROOT)}:{name} ({n} lines)"
        for path in _js_modules()
        for name, n in _js_functions(path.read_text(encoding="utf-8"))
        if n > FUNCTION_LINES
    ]
    assert long == []


def test_the_js_measure_counts_a_declaration_to_its_own_closing_brace():
    source = (
        "export function outer(a) {\n  function inner() {\n    return a;\n  }\n  return inner;\n}\n"
    )
    assert _js_functions(source) == [("outer", 6), ("inner", 3)]

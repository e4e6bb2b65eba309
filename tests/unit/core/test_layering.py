"""The core layer imports no notebook machinery, so it works in a plain process or terminal."""

from __future__ import annotations

import ast
from pathlib import Path

import jaxdbg_widgets.core

FORBIDDEN = {"IPython", "ipykernel", "ipywidgets", "anywidget", "comm", "jupyter_client"}
LAYERS_ABOVE = ("jaxdbg_widgets.debugger", "jaxdbg_widgets.notebook", "jaxdbg_widgets.sharding")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_modules_import_no_ipython_and_no_upper_layer():
    modules = sorted(Path(jaxdbg_widgets.core.__file__).parent.glob("*.py"))
    assert len(modules) > 5
    for module in modules:
        for name in _imports(module):
            assert name.partition(".")[0] not in FORBIDDEN, f"{module.name} imports {name}"
            assert not name.startswith(LAYERS_ABOVE), f"{module.name} imports {name}"

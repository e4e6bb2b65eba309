"""Models import no views, no module anywhere imports one that imports it back, and the
debugger's rooms import only those before them: read from every import statement in the
package, lazy ones included."""

from __future__ import annotations

import ast
from pathlib import Path

import jaxdbg_widgets

ROOT = Path(jaxdbg_widgets.__file__).parent
MODELS = (
    "jaxdbg_widgets.comms.capture",
    "jaxdbg_widgets.comms.cost",
    "jaxdbg_widgets.comms.groups",
    "jaxdbg_widgets.comms.hlo",
    "jaxdbg_widgets.comms.model",
    "jaxdbg_widgets.comms.program",
    "jaxdbg_widgets.comms.shapes",
    "jaxdbg_widgets.compiles.diff",
    "jaxdbg_widgets.compiles.model",
    "jaxdbg_widgets.compiles.program",
    "jaxdbg_widgets.compiles.recorder",
    "jaxdbg_widgets.compiles.signature",
    "jaxdbg_widgets.debugger.session.base",
    "jaxdbg_widgets.debugger.session.cluster",
    "jaxdbg_widgets.debugger.session.cluster_link",
    "jaxdbg_widgets.debugger.session.commands",
    "jaxdbg_widgets.debugger.session.compare_pictures",
    "jaxdbg_widgets.debugger.session.frame_view",
    "jaxdbg_widgets.debugger.session.shard_commands",
    "jaxdbg_widgets.debugger.session.shard_compare",
    "jaxdbg_widgets.debugger.session.shard_gathering",
    "jaxdbg_widgets.debugger.session.shard_selection",
    "jaxdbg_widgets.debugger.session.shards",
    "jaxdbg_widgets.debugger.session.single",
    "jaxdbg_widgets.debugger.session.values",
    "jaxdbg_widgets.debugger.session.workers",
    "jaxdbg_widgets.memory.assignment",
    "jaxdbg_widgets.memory.liveness",
    "jaxdbg_widgets.memory.model",
    "jaxdbg_widgets.memory.peak",
    "jaxdbg_widgets.memory.grid",
    "jaxdbg_widgets.memory.program",
    "jaxdbg_widgets.memory.proto_wire",
    "jaxdbg_widgets.memory.schedule",
    "jaxdbg_widgets.memory.sources",
    "jaxdbg_widgets.memory.units",
    "jaxdbg_widgets.nans.locate",
    "jaxdbg_widgets.nans.loops",
    "jaxdbg_widgets.nans.origin",
    "jaxdbg_widgets.nans.program",
    "jaxdbg_widgets.nans.progress",
    "jaxdbg_widgets.nans.report",
    "jaxdbg_widgets.nans.rules",
    "jaxdbg_widgets.nans.search",
    "jaxdbg_widgets.nans.shard_map_step",
    "jaxdbg_widgets.nans.summary",
    "jaxdbg_widgets.nans.validation",
    "jaxdbg_widgets.notebook.printlog",
    "jaxdbg_widgets.pictures.extent",
    "jaxdbg_widgets.pictures.model",
    "jaxdbg_widgets.pictures.numeric",
    "jaxdbg_widgets.pictures.reduce",
    "jaxdbg_widgets.pictures.scale",
    "jaxdbg_widgets.sharding.cells",
    "jaxdbg_widgets.sharding.layout",
    "jaxdbg_widgets.sharding.specs",
)
VIEWS = (
    "jaxdbg_widgets.comms.diagrams",
    "jaxdbg_widgets.comms.display",
    "jaxdbg_widgets.comms.html",
    "jaxdbg_widgets.comms.kind",
    "jaxdbg_widgets.comms.png",
    "jaxdbg_widgets.comms.standalone",
    "jaxdbg_widgets.comms.text",
    "jaxdbg_widgets.comms.view",
    "jaxdbg_widgets.comms.widget",
    "jaxdbg_widgets.compiles.display",
    "jaxdbg_widgets.compiles.html",
    "jaxdbg_widgets.compiles.standalone",
    "jaxdbg_widgets.compiles.text",
    "jaxdbg_widgets.compiles.view",
    "jaxdbg_widgets.debugger.view.build",
    "jaxdbg_widgets.debugger.widget.static_html",
    "jaxdbg_widgets.debugger.widget.widget",
    "jaxdbg_widgets.memory.display",
    "jaxdbg_widgets.memory.html",
    "jaxdbg_widgets.memory.kind",
    "jaxdbg_widgets.memory.peak_display",
    "jaxdbg_widgets.memory.peak_html",
    "jaxdbg_widgets.memory.peak_text",
    "jaxdbg_widgets.memory.peak_view",
    "jaxdbg_widgets.memory.text",
    "jaxdbg_widgets.memory.view",
    "jaxdbg_widgets.memory.widget",
    "jaxdbg_widgets.nans.display",
    "jaxdbg_widgets.nans.frames",
    "jaxdbg_widgets.nans.html",
    "jaxdbg_widgets.nans.progress_view",
    "jaxdbg_widgets.nans.standalone",
    "jaxdbg_widgets.nans.text",
    "jaxdbg_widgets.nans.view",
    "jaxdbg_widgets.nans.widget",
    "jaxdbg_widgets.notebook.printlog_display",
    "jaxdbg_widgets.notebook.printlog_widget",
    "jaxdbg_widgets.pictures.colors",
    "jaxdbg_widgets.pictures.display",
    "jaxdbg_widgets.pictures.html",
    "jaxdbg_widgets.pictures.row",
    "jaxdbg_widgets.pictures.text",
    "jaxdbg_widgets.pictures.view",
    "jaxdbg_widgets.pictures.widget",
    "jaxdbg_widgets.sharding.api",
    "jaxdbg_widgets.sharding.html",
    "jaxdbg_widgets.sharding.text",
    "jaxdbg_widgets.sharding.view",
    "jaxdbg_widgets.sharding.widget",
)
RENDERING = ("anywidget", "ipywidgets", "rich", "matplotlib")
CHECKED = (
    "jaxdbg_widgets.comms",
    "jaxdbg_widgets.compiles",
    "jaxdbg_widgets.memory",
    "jaxdbg_widgets.nans",
    "jaxdbg_widgets.notebook",
    "jaxdbg_widgets.pictures",
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every module ``path`` imports, anywhere in it; ``from p import m`` names ``p.m`` when
    that is a module (its parent package is loaded anyway), else ``p``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    return found - {name}


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in ROOT.rglob("*.py")}
    known = set(paths)
    return {name: _imports(path, known) for name, path in paths.items()}


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, ()))
    return seen


def test_the_graph_sees_lazy_imports():
    graph = _graph()
    assert (
        "jaxdbg_widgets.notebook.printlog_widget"
        in graph["jaxdbg_widgets.notebook.printlog_display"]
    )  # imported inside widget() only
    assert set(MODELS) | set(VIEWS) <= set(graph)


def test_models_import_no_view():
    graph = _graph()
    for model in MODELS:
        reached = _reachable(graph, model)
        assert not reached & set(VIEWS), f"{model} imports {sorted(reached & set(VIEWS))}"
        heavy = {name for name in reached if name.partition(".")[0] in RENDERING}
        assert not heavy, f"{model} imports {sorted(heavy)}"


def test_no_memory_or_notebook_module_imports_one_that_imports_it_back():
    graph = _graph()
    for name in sorted(graph):
        if name.startswith(CHECKED) and name not in CHECKED:
            back = sorted(m for m in graph[name] if name in _reachable(graph, m) or m == name)
            assert not back, f"{name} imports {back}, which import it back"


def test_no_module_anywhere_imports_one_that_imports_it_back():
    graph = _graph()
    graph = {name: {m for m in imported if m in graph} for name, imported in graph.items()}
    circles = []
    for name in sorted(graph):
        reached = _reachable(graph, name)
        if name in reached:
            back = sorted(m for m in graph[name] if name in _reachable(graph, m) or m == name)
            circles.append(f"{name} imports {back}")
    assert not circles, "\n".join(circles)


ROOMS = ("session", "view", "widget", "serve", "install")
"""The debugger's rooms in order: each imports only the rooms before it."""


def test_each_debugger_room_imports_only_the_rooms_before_it():
    graph = _graph()
    prefix = "jaxdbg_widgets.debugger."
    for rank, room in enumerate(ROOMS):
        later = tuple(f"{prefix}{r}" for r in ROOMS[rank + 1 :])
        for name in sorted(n for n in graph if n.startswith(f"{prefix}{room}.")):
            upward = sorted(m for m in graph[name] if m.startswith(later))
            assert not upward, f"{name} imports {upward}, from a later room"

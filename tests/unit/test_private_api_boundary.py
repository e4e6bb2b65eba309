"""Private APIs of JAX, IPython and ipykernel are touched only inside their adapters.

The ``jaxdbg_widgets/core/_jax_internals`` package is the one place that may reach ``jax._src``
or a private JAX attribute; the ``jaxdbg_widgets/_kernel`` package is the one place that may read or
write a private IPython or ipykernel name, use :mod:`ctypes` or replace the signal wakeup fd.
Each checks what it uses at load, so nothing else may.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "jaxdbg_widgets"
JAX_ADAPTER = PACKAGE / "core" / "_jax_internals"
KERNEL_ADAPTERS = PACKAGE / "_kernel"
KERNEL_LIBRARIES = ("IPython", "ipykernel")
# Underscored but documented standard-library API: sys._getframe and namedtuple's methods.
STDLIB_UNDERSCORED = {"_getframe", "_make", "_asdict", "_replace", "_fields", "_field_defaults"}
JAX_PRIVATE_PATH = re.compile(r"^jax\._src(\.|$)")


def _sources() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def _is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attribute reads on a name, else ``None``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _imported_modules(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """``(line, module, imported names)`` for every import statement."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
    return found


def _private_import(module: str, names: list[str], libraries: tuple[str, ...]) -> bool:
    parts = module.split(".")
    if parts[0] not in libraries:
        return False
    return any(_is_private(p) for p in parts) or any(_is_private(n) for n in names)


def _module_aliases(tree: ast.Module, libraries: tuple[str, ...]) -> dict[str, str]:
    """Local names bound to a module of ``libraries`` (``import jax.numpy as jnp`` -> jnp)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in libraries:
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] in libraries
        ):
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _private_uses(tree: ast.Module, libraries: tuple[str, ...]) -> list[str]:
    """Imports of, and attribute reads on, private names of ``libraries``."""
    found = [
        f"line {line}: import {module} {names or ''}".strip()
        for line, module, names in _imported_modules(tree)
        if _private_import(module, names, libraries)
    ]
    aliases = _module_aliases(tree, libraries)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        outermost = isinstance(node, ast.Attribute) and id(node) not in inner
        dotted = _dotted(node) if outermost else None
        if dotted is None:
            continue
        head, *rest = dotted.split(".")
        if head in aliases and any(_is_private(p) for p in rest):
            found.append(f"line {node.lineno}: {dotted}")
    return found


def _jax_private_strings(tree: ast.Module) -> list[str]:
    """String constants naming a ``jax._src`` module (logger names, import paths)."""
    return [
        f"line {node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and JAX_PRIVATE_PATH.match(node.value)
    ]


def test_only_the_jax_adapter_touches_jax_private_apis():
    offenders = {}
    for path, tree in _sources().items():
        if JAX_ADAPTER in path.parents:
            continue
        uses = _private_uses(tree, ("jax", "jaxlib")) + _jax_private_strings(tree)
        if uses:
            offenders[str(path.relative_to(PACKAGE))] = uses
    assert offenders == {}


def _is_own_target(node: ast.AST) -> bool:
    """``self.x``/``cls.x``: an attribute a class of ours gives its own instances."""
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _own_names(trees: dict[Path, ast.Module]) -> set[str]:
    """Every name the package (outside its adapters) defines, binds, or sets on ``self``/``cls``.

    A write to any other object's attribute does not make the name ours: it is checked below.
    """
    names = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and _is_own_target(node.value)
            ):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
    return names


ATTRIBUTE_FUNCTIONS = ("getattr", "setattr", "delattr", "hasattr")


def _foreign_private_reads(tree: ast.Module, own: set[str]) -> list[str]:
    """Reads and writes of a private attribute that is not one of ``own`` (so belongs to a
    library): ``x._name``, ``x._name = v``, ``setattr(x, "_name", v)``, ``vars(x)["_name"]``."""
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ATTRIBUTE_FUNCTIONS
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
        ):
            name = node.args[1].value
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "vars"
            and isinstance(node.slice, ast.Constant)
        ):
            name = node.slice.value
        if isinstance(name, str) and _is_private(name) and name not in own:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _process_hooks(tree: ast.Module) -> list[str]:
    """Uses of :mod:`ctypes` and of ``signal.set_wakeup_fd``: the interpreter's own hooks."""
    found = [
        f"line {line}: import {module}"
        for line, module, _ in _imported_modules(tree)
        if module.split(".")[0] == "ctypes"
    ]
    found += [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if (isinstance(node, ast.Attribute) and node.attr == "set_wakeup_fd")
        or (isinstance(node, ast.alias) and node.name == "set_wakeup_fd")
    ]
    return found


def _is_adapter(path: Path) -> bool:
    return JAX_ADAPTER in path.parents or KERNEL_ADAPTERS in path.parents


def test_only_the_kernel_adapters_touch_ipython_and_ipykernel_private_apis():
    """No private IPython/ipykernel import, no read or write of a private attribute the package
    does not define itself (``kernel._parent_ident``, ``comm._reply_subshell_for = ...``), no
    ``ctypes`` and no wakeup fd, outside the adapters."""
    trees = _sources()
    assert (KERNEL_ADAPTERS / "checks.py") in trees, "the kernel adapters moved: update this test"
    own = _own_names({p: t for p, t in trees.items() if not _is_adapter(p)}) | STDLIB_UNDERSCORED
    offenders = {}
    for path, tree in trees.items():
        if _is_adapter(path):
            continue
        uses = (
            _private_uses(tree, KERNEL_LIBRARIES)
            + _foreign_private_reads(tree, own)
            + _process_hooks(tree)
        )
        if uses:
            offenders[str(path.relative_to(PACKAGE))] = uses
    assert offenders == {}


def test_the_checks_catch_what_they_are_for():
    """Each rule flags a sample of what it forbids and passes its allowed counterpart."""
    jax_tree = ast.parse(
        "from jax._src import core\nimport jax\nx = jax._src.config\n"
        "name = 'jax._src.debugging'\nfrom jax.experimental import _private_thing\n"
    )
    assert len(_private_uses(jax_tree, ("jax",))) == 3
    assert len(_jax_private_strings(jax_tree)) == 1
    assert _private_uses(ast.parse("import jax\njax.numpy.zeros(1)"), ("jax",)) == []
    kernel_tree = ast.parse("from ipykernel.kernelbase import _private\nimport IPython\nIPython._x")
    assert len(_private_uses(kernel_tree, KERNEL_LIBRARIES)) == 2
    reads = ast.parse("self._mine = 1\nself._mine\nshell._showtraceback(1)")
    assert _foreign_private_reads(reads, _own_names({Path("x.py"): reads})) == [
        "line 3: shell._showtraceback"
    ]
    writes = ast.parse(
        "comm._reply_subshell_for = f\nsetattr(comm, '_reply_subshell_for', f)\n"
        "vars(comm)['_reply_subshell_for'] = f\nsetattr(comm, 'handle_msg', f)\n"
    )
    assert len(_foreign_private_reads(writes, _own_names({Path("x.py"): writes}))) == 3
    hooks = ast.parse(
        "import ctypes\nfrom ctypes import pythonapi\nimport signal\n"
        "signal.set_wakeup_fd(3)\nfrom signal import set_wakeup_fd\nsignal.signal(2, f)\n"
    )
    assert len(_process_hooks(hooks)) == 4

"""The widgets' JSDoc types, written from their ``TypedDict``s: the one definition of each
widget's JSON is its Python schema module, and ``js/schema/<widget>.js`` is made from it.

``python -m tests.unit.schema_js`` writes every file again after a schema changes;
``tests/unit/test_widget_schema.py`` fails while one is out of date. Each file holds the JSDoc
``@typedef``s TypeScript's checker reads (the widget modules import them by name) and the same
types as data (``TYPES``) for the node tests' value checks (``js/test/schema.mjs``).
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import json
import re
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union

from jaxdbg_widgets.comms import schema as comms_schema
from jaxdbg_widgets.compiles import schema as compiles_schema
from jaxdbg_widgets.debugger import schema as debugger_schema
from jaxdbg_widgets.memory import peak_schema
from jaxdbg_widgets.memory import schema as memory_schema
from jaxdbg_widgets.nans import schema as nans_schema
from jaxdbg_widgets.notebook import printlog_schema
from jaxdbg_widgets.pictures import schema as pictures_schema
from jaxdbg_widgets.sharding import schema as sharding_schema

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
GENERATED = JS / "schema"
WIDTH = 100

PAIRS: list[tuple[types.ModuleType, str]] = [
    (debugger_schema, "debugger.js"),
    (sharding_schema, "sharding.js"),
    (memory_schema, "memory.js"),
    (printlog_schema, "printlog.js"),
    (comms_schema, "comms.js"),
    (pictures_schema, "pictures.js"),
    (nans_schema, "nans.js"),
    (compiles_schema, "compiles.js"),
    (peak_schema, "peak.js"),
]
"""Each widget's schema module and the JS module that draws it; ``js/schema/`` holds the
generated file of the same name."""


def js_type(annotation: Any) -> str:
    """A ``TypedDict`` field's annotation as a JSDoc type expression."""
    named = {str: "string", int: "number", float: "number", bool: "boolean"}
    if annotation in named:
        return named[annotation]
    if annotation in (None, type(None)):
        return "null"
    if annotation is Any:
        return "*"
    if typing.is_typeddict(annotation):
        return annotation.__name__
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return "|".join(json.dumps(value) for value in args)
    if origin in (Union, types.UnionType):
        return "|".join(js_type(arg) for arg in args)
    if origin is list:
        return f"Array<{js_type(args[0])}>"
    if origin is tuple:
        return f"[{', '.join(js_type(arg) for arg in args)}]"
    if origin is dict:
        return f"Object<string, {js_type(args[1])}>"
    raise TypeError(f"no JSON type for {annotation!r}")


def generated_module(schema: types.ModuleType) -> str:
    """The text of ``js/schema/<widget>.js`` for one schema module: a typedef for each type it
    declares, an imported one for each it takes from another, and its own types as data."""
    source = Path(inspect.getfile(schema)).relative_to(ROOT).as_posix()
    notes = _alias_docs(schema)
    blocks, data = [], []
    for name in [n for n in schema.__all__ if _owns(schema, n)]:
        declared = getattr(schema, name)
        if typing.is_typeddict(declared):
            keys = {f"[{k}]" if o else k: t for k, (t, o) in _fields(declared).items()}
            doc = inspect.getdoc(declared) or ""
            tags = [
                f"@typedef {{Object}} {name}",
                *(f"@property {{{t}}} {k}" for k, t in keys.items()),
            ]
            data.append(f"  {json.dumps(name)}: {json.dumps(keys)},")
        else:
            alias = js_type(declared)
            doc, tags = notes.get(name, ""), [f"@typedef {{{alias}}} {name}"]
            data.append(f"  {json.dumps(name)}: {json.dumps(alias)},")
        blocks.append(_comment(doc, tags))
    imports = _imports(schema, blocks)
    return "\n".join(
        [
            f"// Generated from {source}:",
            "// its TypedDicts are the one definition of this JSON. Edit them, then run",
            "// `python -m tests.unit.schema_js`.",
            "",
            "\n\n".join([*([imports] if imports else []), *blocks]),
            "",
            "// Each type as data: its keys (a `[key]` may be left out) with their types, or its",
            "// type expression.",
            "export const TYPES = {",
            *data,
            "};",
            "",
        ]
    )


def _owns(schema: types.ModuleType, name: str) -> bool:
    """Whether ``schema`` declares ``name`` itself, rather than taking it from another module."""
    declared = getattr(schema, name)
    if typing.is_typeddict(declared):
        return declared.__module__ == schema.__name__
    return any(
        isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets)
        for node in _module_body(schema)
    )


def _imports(schema: types.ModuleType, blocks: list[str]) -> str:
    """Typedef imports of the names another schema module declares: those this module passes
    on, and those its own types use."""
    used = set(re.findall(r"[A-Z]\w*", " ".join(re.findall(r"\{([^}]*)\}", "".join(blocks)))))
    names = (used | set(schema.__all__)) - {"Array", "Object"}
    lines = []
    for name in sorted(n for n in names if not (n in schema.__all__ and _owns(schema, n))):
        owner = next(js for other, js in PAIRS if name in other.__all__ and _owns(other, name))
        lines.append(f'/** @typedef {{import("./{owner}").{name}}} {name} */')
    return "\n".join(lines)


def _fields(typed_dict: Any) -> dict[str, tuple[str, bool]]:
    hints = typing.get_type_hints(typed_dict)
    optional = typed_dict.__optional_keys__
    return {key: (js_type(hint), key in optional) for key, hint in hints.items()}


@functools.cache
def _module_body(schema: types.ModuleType) -> list[ast.stmt]:
    """The top-level statements of a schema module's source, read once."""
    return ast.parse(Path(inspect.getfile(schema)).read_text(encoding="utf-8")).body


def _alias_docs(schema: types.ModuleType) -> dict[str, str]:
    """The string under each ``Name = ...`` of the module's source: a type alias's docstring."""
    body = _module_body(schema)
    docs = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.targets[0].id] = inspect.cleandoc(after.value.value)
    return docs


def _comment(doc: str, tags: list[str]) -> str:
    """A JSDoc block: the docstring (``code`` as `code`), wrapped, then the tags."""
    text = re.sub(r"``([^`]+)``", r"`\1`", doc)
    lines = []
    for paragraph in [p for p in text.split("\n\n") if p.strip()]:
        lines += textwrap.wrap(" ".join(paragraph.split()), WIDTH - 3) or [""]
    return "\n".join(["/**", *(f" * {line}" for line in [*lines, *tags]), " */"])


def write_all() -> list[Path]:
    """Write every generated file; the paths whose text changed."""
    GENERATED.mkdir(exist_ok=True)
    changed = []
    for schema, js in PAIRS:
        path, text = GENERATED / js, generated_module(schema)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for path in write_all():
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)

"""Each widget's JSON is declared twice, a ``TypedDict`` in Python and a JSDoc ``@typedef`` in
the JS module that draws it; the two must name the same types with the same keys and types, and
each widget's synced traits must be its model's keys."""

from __future__ import annotations

import re
import typing

import anywidget
import pytest

from jaxdbg_widgets.comms import schema as comms_schema
from jaxdbg_widgets.comms.widget import CommunicationWidget
from jaxdbg_widgets.compiles import schema as compiles_schema
from jaxdbg_widgets.debugger import schema as debugger_schema
from jaxdbg_widgets.debugger.widget.widget import DebuggerWidget
from jaxdbg_widgets.memory import peak_schema
from jaxdbg_widgets.memory import schema as memory_schema
from jaxdbg_widgets.memory.widget import MemoryWidget
from jaxdbg_widgets.nans import schema as nans_schema
from jaxdbg_widgets.nans.widget import NonfiniteWidget
from jaxdbg_widgets.notebook import printlog_schema
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget
from jaxdbg_widgets.pictures import schema as pictures_schema
from jaxdbg_widgets.pictures.widget import PicturesWidget
from jaxdbg_widgets.sharding import schema as sharding_schema
from jaxdbg_widgets.sharding.widget import ShardingWidget

from .widget_schema import (
    JS,
    all_typedefs,
    js_properties,
    parse_type,
    parse_typedefs,
    python_properties,
    python_type,
    resolved,
)

PAIRS = [
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
WIDGETS = [
    (DebuggerWidget, debugger_schema.DebuggerModel),
    (ShardingWidget, sharding_schema.ShardingModel),
    (MemoryWidget, memory_schema.MemoryModel),
    (PrintLogWidget, printlog_schema.PrintLogModel),
    (CommunicationWidget, comms_schema.CommsModel),
    (PicturesWidget, pictures_schema.PicturesModel),
    (NonfiniteWidget, nans_schema.NonfiniteModel),
]


def _ids(pairs):
    return [js for _, js in pairs]


def test_every_widget_module_has_its_schema_pair():
    exports_render = re.compile(r"export default \{[^}]*\brender\b")
    widgets = {p.name for p in JS.glob("*.js") if exports_render.search(p.read_text())}
    assert widgets == set(_ids(PAIRS)), "each widget's JS module needs its schema.py in PAIRS"


@pytest.mark.parametrize(("module", "js"), PAIRS, ids=_ids(PAIRS))
def test_both_sides_declare_the_same_names(module, js):
    declared = {n for n, t in parse_typedefs(JS / js).items() if not t.imported}
    assert declared == set(module.__all__)


@pytest.mark.parametrize(("module", "js"), PAIRS, ids=_ids(PAIRS))
def test_every_type_has_the_same_keys_and_types_on_both_sides(module, js):
    typedefs = all_typedefs()
    for name in module.__all__:
        declared = getattr(module, name)
        if typing.is_typeddict(declared):
            assert js_properties(name, typedefs) == python_properties(declared), name
        else:
            assert resolved(typedefs[name].alias, typedefs) == python_type(declared), name


@pytest.mark.parametrize(("module", "js"), PAIRS, ids=_ids(PAIRS))
def test_every_referenced_type_is_declared_in_js(module, js):
    typedefs = all_typedefs()

    def refs(tree):
        if tree[0] == "ref":
            yield tree[1]
        for part in tree[1:]:
            if isinstance(part, tuple) and part and isinstance(part[0], str):
                yield from refs(part)
            elif isinstance(part, (tuple, frozenset)):
                for item in part:
                    yield from refs(item)

    for typedef in parse_typedefs(JS / js).values():
        trees = [t for t, _ in typedef.properties.values()]
        trees += [typedef.alias] if typedef.alias else []
        for tree in trees:
            for ref in refs(tree):
                assert ref in typedefs or ref in parse_typedefs(JS / js), ref


@pytest.mark.parametrize(("widget", "model"), WIDGETS, ids=[w.__name__ for w, _ in WIDGETS])
def test_the_synced_traits_are_the_model_keys(widget, model):
    own = set(widget.class_trait_names(sync=True)) - set(
        anywidget.AnyWidget.class_trait_names(sync=True)
    )
    assert own == set(typing.get_type_hints(model))


def test_the_comparison_sees_a_changed_key_type_or_optional_mark():
    assert parse_type("Array<[number, string]>|null") == python_type(list[tuple[int, str]] | None)
    assert parse_type("Array<number>") != python_type(list[str])
    assert parse_type('"a"|"b"') == python_type(typing.Literal["b", "a"])

    class Row(typing.TypedDict):
        name: str

    assert python_properties(Row) == {"name": (("string",), False)}
    assert python_properties(Row) != {"name": (("string",), True)}
    assert parse_type("string[][]") == parse_type("Array<Array<string>>")
    assert parse_type("{a: number, b?: string}") == (
        "object",
        frozenset({("a", ("number",), False), ("b", ("string",), True)}),
    )
    with pytest.raises(ValueError):
        parse_type("Array<number")

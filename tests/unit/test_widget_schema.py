"""Each widget's JSON is declared once, by the ``TypedDict``s of its Python schema module;
``js/schema/<widget>.js`` is generated from them, and the JS module that draws the widget imports
those types rather than declaring them again. Each widget's synced traits are its model's keys."""

from __future__ import annotations

import re
import typing

import anywidget
import pytest

from jaxdbg_widgets.comms import schema as comms_schema
from jaxdbg_widgets.comms.widget import CommunicationWidget
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

from .schema_js import GENERATED, JS, PAIRS, generated_module, js_type

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
def test_the_generated_js_schema_is_made_from_the_typeddicts(module, js):
    written = (GENERATED / js).read_text(encoding="utf-8")
    assert written == generated_module(module), (
        f"js/schema/{js} is out of date: run python -m tests.unit.schema_js"
    )


@pytest.mark.parametrize(("module", "js"), PAIRS, ids=_ids(PAIRS))
def test_the_widget_imports_its_types_and_declares_none_of_them_again(module, js):
    source = (JS / js).read_text(encoding="utf-8")
    for name in module.__all__:
        assert f'@typedef {{import("./schema/{js}").{name}}} {name} */' in source, name
    declared = set(re.findall(r"@typedef\s*\{(?!import\()[^@]*?\}\s*(\w+)", source))
    assert not declared & set(module.__all__), declared & set(module.__all__)


@pytest.mark.parametrize(("widget", "model"), WIDGETS, ids=[w.__name__ for w, _ in WIDGETS])
def test_the_synced_traits_are_the_model_keys(widget, model):
    own = set(widget.class_trait_names(sync=True)) - set(
        anywidget.AnyWidget.class_trait_names(sync=True)
    )
    assert own == set(typing.get_type_hints(model))


def test_each_annotation_becomes_its_jsdoc_type():
    assert js_type(list[tuple[int, str]] | None) == "Array<[number, string]>|null"
    assert js_type(typing.Literal["a", "b"]) == '"a"|"b"'
    assert js_type(dict[str, float]) == "Object<string, number>"

    class Row(typing.TypedDict):
        """A row."""

        name: str
        size: typing.NotRequired[int]

    assert js_type(list[Row]) == "Array<Row>"
    with pytest.raises(TypeError):
        js_type(set[int])


def test_a_typeddict_becomes_a_typedef_with_its_optional_keys_marked():
    text = generated_module(peak_schema)
    assert "@typedef {Object} PeakFit\n * @property {number} capacity" in text
    assert "@property {PeakFit|null} fit" in text
    assert "@property {Array<[number, number]>} timeline" in text
    fields = generated_module(debugger_schema)
    assert "@property {number} [size]" in fields  # ArraySummary's NotRequired keys

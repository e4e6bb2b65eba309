"""Kernel-free views are one standalone text/html output: static twin, state JSON, loader."""

from __future__ import annotations

import base64
import json
import re

import jax
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._standalone_html import standalone_html
from jaxdbg_widgets.sharding import api
from jaxdbg_widgets.sharding.html import html_from_view
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.view import layout_and_view

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
_STATE = re.compile(r'<script type="application/json">(.*?)</script>', re.S)
_MODULES = re.compile(r'import\("data:text/javascript;base64,([A-Za-z0-9+/=]+)"\)')
_STYLE = re.compile(r'<style>([^<]*)</style><script type="application/json">')  # the view's CSS


def _state(markup: str) -> dict:
    [text] = _STATE.findall(markup)
    return json.loads(text)


@pytest.fixture
def shown(monkeypatch):
    """What ``display`` received while visualize_sharding believed it ran in a notebook."""
    calls: list = []
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: calls.extend(objs))
    return calls


def test_a_notebook_diagram_is_one_html_output_with_its_state_and_no_widget(shown):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    api.visualize_sharding((8, 16), sharding)
    [output] = shown
    bundle = output._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"} and WIDGET_MIME not in bundle
    _, view = layout_and_view((8, 16), sharding, options=RenderOptions())
    markup = bundle["text/html"]
    assert html_from_view(view) in markup  # the static twin, for viewers that run no script
    as_json = json.loads(json.dumps(view))
    assert _state(markup) == {"state": {"view": as_json, "selected": [], "zoom": 1.0}}
    widget, mount = (base64.b64decode(m).decode() for m in _MODULES.findall(markup))
    assert widget == inlined_module("sharding.js") and "export function mount" in mount
    assert "CPU 7" in bundle["text/plain"]


def test_the_output_is_the_same_bytes_every_time(shown):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    for _ in range(2):
        api.visualize_sharding((8, 16), NamedSharding(mesh, PartitionSpec("x")))
    first, second = (o._repr_mimebundle_()["text/html"] for o in shown)
    assert first == second


def test_state_text_cannot_close_its_script_element():
    hostile = {"view": {"title": "</script><script>alert(1)</script> & <!--"}}
    markup = standalone_html(module="sharding.js", css=(), state=hostile, static_html="")
    [text] = _STATE.findall(markup)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["state"] == hostile
    assert markup.count("</script>") == 2


@pytest.fixture
def in_notebook(monkeypatch):
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)


def _params():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    put = lambda shape, spec: jax.device_put(np.zeros(shape), NamedSharding(mesh, spec))  # noqa: E731
    return {"w": put((8, 16), PartitionSpec("data", "model")), "b": put((16,), PartitionSpec())}


def test_a_notebook_memory_map_carries_every_leaf_diagram_and_no_widget(in_notebook):
    import jaxdbg_widgets as jdw
    from jaxdbg_widgets.memory.leaf_diagram import leaf_diagram

    memory = jdw.memory_map(_params())
    bundle = memory._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    payload = _state(bundle["text/html"])
    assert payload["state"]["leaf"] == -1 and payload["state"]["leaf_view"] == {}
    target, diagrams = payload["derived"]["leaf"]
    expected = {str(i): leaf_diagram(memory, i) for i in range(len(memory.leaves))}
    assert target == "leaf_view" and diagrams == json.loads(json.dumps(expected))


def test_a_map_whose_diagrams_exceed_the_budget_is_the_live_widget(in_notebook, monkeypatch):
    import jaxdbg_widgets as jdw
    from jaxdbg_widgets.memory import standalone

    monkeypatch.setattr(standalone, "BUDGET", 100)
    bundle = jdw.memory_map(_params())._repr_mimebundle_()
    assert WIDGET_MIME in bundle


def test_a_saved_diagram_or_map_is_styled_as_its_live_widget(shown):
    import jaxdbg_widgets as jdw
    from jaxdbg_widgets.memory.widget import MemoryWidget
    from jaxdbg_widgets.sharding.widget import ShardingWidget

    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    api.visualize_sharding((8, 16), NamedSharding(mesh, PartitionSpec("x")))
    [diagram] = shown
    memory = jdw.memory_map(_params())
    for output, widget in ((diagram, ShardingWidget), (memory, MemoryWidget)):
        [style] = _STYLE.findall(output._repr_mimebundle_()["text/html"])
        assert style == widget._css and style.startswith(stylesheet("widgets.css"))

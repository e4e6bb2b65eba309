"""In a notebook the map is one standalone text/html output carrying every line's diagrams; past
the budget it is the live widget."""

import json
import re

import jax
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import communication_map, standalone
from jaxdbg_widgets.comms.model import CommunicationModel

from .test_golden import make_mesh, struct


def gather_map():
    mesh = make_mesh((2, 4), ("x", "y"))

    def step(w):
        return jax.lax.with_sharding_constraint(w * 2, NamedSharding(mesh, P()))

    return communication_map(jax.jit(step), struct((64, 32), mesh, P("y", None)))


def test_the_output_carries_the_static_twin_the_state_and_every_lines_diagrams():
    comms = gather_map()
    output = standalone.standalone_map(comms)
    assert output is not None and output.text == comms.to_text()
    assert comms.to_html() in output.html
    payload = json.loads(
        re.search(r'<script type="application/json">(.*?)</script>', output.html).group(1)
    )
    assert payload["state"]["line"] == -1 and payload["state"]["line_view"] == {}
    target, diagrams = payload["derived"]["line"]
    assert target == "line_view" and sorted(diagrams) == ["0"]
    assert diagrams["0"]["items"][0]["title"].startswith("all-gather")
    assert output.html == standalone.standalone_map(gather_map()).html  # deterministic


def test_past_the_budget_there_is_no_standalone_output(monkeypatch):
    monkeypatch.setattr(standalone, "BUDGET", 10)
    assert standalone.standalone_map(gather_map()) is None


def test_the_pure_model_has_no_display_hooks():
    assert not hasattr(CommunicationModel, "_repr_mimebundle_")
    assert not hasattr(CommunicationModel, "to_html")
    assert isinstance(gather_map(), CommunicationModel)

"""The communication widget: a selected line brings its collectives' sharding diagrams."""

import jax
import pytest
import traitlets
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import communication_map, communication_map_from_text

from .markers import line_of
from .test_golden import make_mesh, struct
from .test_hlo import MODULE


def gather_map():
    mesh = make_mesh((2, 4), ("x", "y"))

    def step(w):
        return jax.lax.with_sharding_constraint(w * 2, NamedSharding(mesh, P()))  # widget-ag

    return communication_map(jax.jit(step), struct((64, 32), mesh, P("y", None)))


def test_selecting_a_line_draws_operand_split_and_result_whole():
    comms = gather_map()
    widget = comms.widget()
    # The gather's line where XLA writes one; newer XLA gives it only the argument's name.
    (index,) = [
        i
        for i, g in enumerate(comms.lines)
        if g.source.line in (line_of("widget-ag", __file__), None) and g.collectives
    ]
    widget.line = index
    (item,) = widget.line_view["items"]
    assert widget.line_view["line"] == index
    assert item["title"].startswith("all-gather")
    operand, result = item["operand"], item["result"]
    # the operand is split 4 ways along dim 0 over 'y'; the result is whole on every device.
    assert operand["summary"] != result["summary"]
    assert len(operand["cells"]["label"]) == 4 and len(result["cells"]["label"]) == 1
    widget.line = -1
    assert widget.line_view == {}


def test_unknown_line_positions_are_refused():
    widget = gather_map().widget()
    with pytest.raises(traitlets.TraitError):
        widget.line = len(widget.view["lines"])


def test_saved_text_has_no_mesh_object_and_the_diagram_says_so():
    comms = communication_map_from_text(MODULE, axis_names=("x", "y"), mesh_shape=(2, 4))
    widget = comms.widget()
    widget.line = 0
    assert all(item["operand"] is None for item in widget.line_view["items"])
    assert any("no" in item["note"] for item in widget.line_view["items"])


def test_bundle_carries_the_static_twin_and_a_whole_repr():
    widget = gather_map().widget()
    data, _ = widget._repr_mimebundle_()
    assert "communication map" in data["text/html"] and "all-gather" in data["text/plain"]
    assert "· 1 collective ·" in data["text/html"]

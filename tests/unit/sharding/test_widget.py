import base64
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import traitlets
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets import ShardingWidget, sharding_html, sharding_text
from jaxdbg_widgets._assets import asset, inlined_module
from jaxdbg_widgets.sharding.view import tooltip_text


@pytest.fixture
def array():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    return jax.device_put(
        jnp.zeros((8, 16), jnp.float32), NamedSharding(mesh, PartitionSpec("x", "y"))
    )


def test_bundle_carries_the_static_html_fallback(array):
    widget = ShardingWidget.from_array(array)
    data, _ = widget._repr_mimebundle_()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id
    assert data["text/html"] == sharding_html(array.shape, array.sharding, dtype=array.dtype)


def test_view_model_describes_cells(array):
    view = ShardingWidget.from_array(array, color_map="viridis").view
    cells = view["cells"]
    assert len(cells["label"]) == 8 and len(view["facets"]) == 1
    first = {field: values[0] for field, values in cells.items()}
    assert list(first["devices"]) == [0] and first["index"] == "[0:4, 0:4]"
    tip = view["tips"][first["tip"]]
    assert tooltip_text(tip, first["devices"], first["index"]) == (
        "CPU 0\nprocess 0\nindex [0:4, 0:4]\nshard shape (4, 4)\n64 bytes"
    )
    assert len(set(cells["color"])) == 8


def test_selection_accepts_known_devices_only(array):
    widget = ShardingWidget.from_array(array)
    widget.selected = [3, 4]
    assert widget.selected == [3, 4]
    with pytest.raises(traitlets.TraitError, match="99"):
        widget.selected = [99]
    with pytest.raises(traitlets.TraitError, match="zoom"):
        widget.zoom = 0


def test_bad_input_is_reported(array):
    with pytest.raises(TypeError, match=r"jax\.Array"):
        ShardingWidget.from_array(np.zeros(3))
    with pytest.raises(ValueError, match="max_width"):
        ShardingWidget.from_array(array, min_width=10, max_width=5)


def test_esm_inlines_helper_modules_as_data_urls():
    source = inlined_module("sharding.js")
    assert 'from "./' not in source
    urls = re.findall(r'from "data:text/javascript;base64,([^"]+)"', source)
    decoded = {base64.b64decode(u).decode() for u in urls}
    assert decoded == {
        inlined_module("sharding_canvas.js"),
        inlined_module("sharding_cells.js"),
        asset("sharding_grid.js").read_text(),
        inlined_module("dom.js"),
        asset("widget_model.js").read_text(),
    }
    assert "export default { render }" in source


@pytest.mark.parametrize("options", [{}, {"scale": 0.5, "min_width": 4}, {"use_color": False}])
def test_text_plain_is_the_text_diagram(array, options):
    widget = ShardingWidget.from_array(array, **options)
    data, _ = widget._repr_mimebundle_()
    expected = sharding_text(
        array.shape, array.sharding, dtype=array.dtype, **{**options, "use_color": False}
    )
    assert data["text/plain"] == expected
    assert "CPU 7" in data["text/plain"] and "\x1b[" not in data["text/plain"]


def test_facets_are_sized_by_their_content():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    one_shard_each = ShardingWidget((2, 4, 64, 64), NamedSharding(mesh, PartitionSpec("x", "y")))
    facets = one_shard_each.view["facets"]
    assert len(facets) == 8
    assert all(f["row_heights"] == [4] and f["col_widths"] == [10] for f in facets)
    four_rows = ShardingWidget((2, 8, 8), NamedSharding(mesh, PartitionSpec("x", "y", None)))
    assert four_rows.view["facets"][0]["row_heights"] == [2, 2, 2, 2]  # 10 lines, as before
    flat = ShardingWidget((64, 64), NamedSharding(mesh, PartitionSpec()))
    assert flat.view["facets"][0]["row_heights"] == [10]  # up to rank 2: JAX's size

"""The view model, static HTML, text and widget renderers of one memory map."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import traitlets
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.memory import memory_map
from jaxdbg_widgets.memory.html import LEAF_ROWS
from jaxdbg_widgets.memory.units import human_bytes
from jaxdbg_widgets.memory.view import leaf_rows, memory_view


@pytest.fixture(scope="module")
def params():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    put = lambda shape, spec: jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec))  # noqa: E731
    return {
        "<script>alert(1)</script>": put((8, 16), P("data", "model")),
        "embed": put((256, 16), P()),
        "mlp": put((8, 64), P(None, "model")),
    }


def test_human_bytes():
    counts = (0, 1023, 1024, 1536, 10 * 1024, 3 << 20, 5 << 40, 1 << 60, 1 << 82)
    assert [human_bytes(n) for n in counts] == [
        "0 B",
        "1023 B",
        "1.00 KiB",
        "1.50 KiB",
        "10.0 KiB",
        "3.00 MiB",
        "5.00 TiB",
        "1.00 EiB",
        "4.00 YiB",
    ]


def test_view_model_groups_devices_and_flags_replicated_leaves(params):
    view = memory_view(memory_map(params))
    assert [d["id"] for d in view["devices"]] == list(range(8))
    assert all(d["color"].startswith("#") and len(d["color"]) == 7 for d in view["devices"])
    assert view["grid"]["cells"][4] == [1, 0, 4]
    rows = leaf_rows(view)
    assert [leaf["path"] for leaf in rows if leaf["flagged"]] == ["['embed']"]
    assert rows[1]["total"] == 8 * 256 * 16 * 4 and rows[1]["per_device"] == 256 * 16 * 4
    assert view["leaves"][1] == ["['embed']", 0, 1]
    assert view["dtypes"] == [["float32", 4]]
    assert view["device_sets"] == [list(range(8))]  # one device set shared by every group
    assert all(isinstance(g["elements"], int) for g in view["groups"])
    assert view["limits"] == "device memory limits: not reported by CPU devices"
    assert view["devices"][0]["tooltip"][-1] == "limit: not reported"
    assert view["legend"]["ticks"][2] == view["devices"][0]["human"]


def test_html_is_deterministic_escaped_and_shows_the_largest_leaves(params):
    memory = memory_map(params)
    html = memory.to_html()
    assert html == memory_map(params).to_html()
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert html.index("[&#x27;embed&#x27;]") < html.index("[&#x27;mlp&#x27;]")
    assert 'class="jdw-mem-flag"' in html
    assert "not reported by CPU devices" in html


def test_html_lists_at_most_the_largest_leaves():
    many = {f"p{i:03d}": jnp.zeros((i + 1,)) for i in range(LEAF_ROWS + 5)}
    html = memory_map(many).to_html()
    assert "p054" in html and "p004" not in html
    assert f"the {LEAF_ROWS} largest of {LEAF_ROWS + 5} leaves" in html


def test_text_names_devices_leaves_and_program(params):
    text = memory_map(params).to_text()
    assert text.splitlines()[0].startswith("memory map · pytree · 3 leaves")
    assert "mesh data=2 model=4" in text and "['embed']" in text
    assert "\x1b[" not in text
    assert str(memory_map(params)) == text
    assert "\x1b[" in memory_map(params).to_text(use_color=True)
    lowered = jax.jit(lambda p: jax.tree.map(lambda v: v * 2, p)).lower(params)
    program_text = memory_map(lowered).to_text()
    assert "XLA memory analysis, per device" in program_text
    assert "peak estimate" in program_text


def test_widget_draws_a_leaf_sharding_on_request(params):
    widget = memory_map(params).widget()
    assert widget.leaf_view == {}
    widget.leaf = 1
    assert widget.leaf_view["leaf"] == 1
    assert widget.leaf_view["summary"][0] == "shape (256, 16) float32"
    assert widget.leaf_view["summary"][-1] == "fully replicated"
    widget.leaf = -1
    assert widget.leaf_view == {}
    with pytest.raises(traitlets.TraitError):
        widget.device = 8
    widget.device = 7


def test_outside_a_kernel_the_map_displays_as_html_and_text(params):
    bundle = memory_map(params)._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert repr(memory_map(params)).startswith("MemoryMap(pytree: 3 leaves")


def test_a_typed_prng_key_leaf_draws_its_sharding():
    keys = jax.random.split(jax.random.key(0), 8)
    widget = memory_map({"k": keys}).widget()
    widget.leaf = 0
    assert widget.leaf_view["summary"][0] == f"shape (8,) {keys.dtype}"
    assert "64 bytes" in widget.leaf_view["tips"][0][-1]
    widget.leaf = -1
    widget.set_state({"leaf": 0})  # what a click in the browser sends
    assert widget.leaf_view["leaf"] == 0


def test_the_colour_scale_runs_from_the_emptiest_device_to_the_fullest():
    mesh = Mesh(np.array(jax.devices()[:2]), ("d",))
    rows = jax.device_put(jnp.zeros((2, 1024)), NamedSharding(mesh, P("d")))
    extra = jax.device_put(jnp.zeros((64,)), jax.devices()[0])
    view = memory_view(memory_map({"rows": rows, "extra": extra}))  # 4352 B against 4096 B
    fuller, emptier = (d["color"] for d in view["devices"])
    assert fuller != emptier
    assert view["legend"]["colors"][0] == emptier and view["legend"]["colors"][-1] == fuller
    assert view["legend"]["ticks"] == ["4.00 KiB", "4.12 KiB", "4.25 KiB"]
    even = memory_view(memory_map({"rows": rows}))
    assert {d["color"] for d in even["devices"]} == {even["legend"]["colors"][-1]}


def test_a_program_device_panel_adds_up_to_the_device_total():
    step = jax.jit(lambda state: jax.tree.map(lambda v: v * 2, state), donate_argnums=0)
    state = {"a": jnp.ones((256, 64)), "b": jnp.ones((64,))}
    memory = memory_map(step.lower(state))
    program = memory_view(memory)["program"]
    assert program["devices"] == [0]
    rows = {label: value for label, value, _ in program["device_rows"]}
    assert rows["aliased: outputs reusing donated arguments, counted once"] == -(256 * 64 + 64) * 4
    leaves = sum(n for _, n in memory.leaves_on(0))
    assert leaves + sum(rows.values()) == memory.device(0).bytes

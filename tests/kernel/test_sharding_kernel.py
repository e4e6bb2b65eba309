"""The sharding views inside a real ipykernel: jax.debug's visualizers show our diagram once the
extension is loaded, a widget's clicks reach the kernel, and unloading restores JAX's text."""

import html
import json

import pytest

from jaxdbg_widgets.sharding.view import tooltip_text

pytestmark = pytest.mark.kernel

SETUP = """
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
x = jax.device_put(jnp.zeros((8, 16)), NamedSharding(mesh, P("x", "y")))
"""
ANYWIDGET_ID = "jaxdbg_widgets.sharding.widget.ShardingWidget"


def _ok(result):
    assert result.error is None, result.error
    return result


def test_jax_debug_visualizers_show_a_standalone_diagram_then_text_after_unload(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))

    shown = _ok(shared_kernel.execute("jax.debug.visualize_array_sharding(x)"))
    assert not shown.of_type("comm_open")  # no widget: nothing to lose after a restart
    assert not shown.data("application/vnd.jupyter.widget-view+json")
    [markup] = shown.data("text/html")
    assert "CPU 7" in markup.split('<script type="application/json">')[0]  # the static twin
    state = json.loads(markup.split('<script type="application/json">')[1].split("</script>")[0])
    view = state["state"]["view"]
    assert view["cells"]["label"] == [f"CPU {i}" for i in range(8)]
    cells = view["cells"]
    tip = tooltip_text(view["tips"][cells["tip"][5]], cells["devices"][5], cells["index"][5])
    assert "index [4:8, 4:8]" in tip.split("\n") and cells["devices"][5] == [5]

    in_jit = _ok(
        shared_kernel.execute(
            "jax.jit(lambda v: (jax.debug.visualize_array_sharding(v), v)[1])(x);"
        )
    )
    assert len(in_jit.data("text/html")) == 1

    three_d = _ok(
        shared_kernel.execute(
            "jax.debug.visualize_sharding((4, 8, 8), NamedSharding(mesh, P('x', None, 'y')))"
        )
    )
    assert "[2:4, :, :]" in three_d.data("text/html")[0]

    _ok(shared_kernel.execute("%unload_ext jaxdbg"))
    text = _ok(shared_kernel.execute("jax.debug.visualize_array_sharding(x)"))
    assert not text.of_type("comm_open")
    assert "CPU 7" in text.stdout + "".join(text.data("text/plain"))  # rich's own Jupyter output


def test_a_click_in_the_browser_reaches_the_widget(shared_kernel):
    _ok(shared_kernel.execute(SETUP + "import jaxdbg_widgets as jdw"))
    shown = _ok(shared_kernel.execute("w = jdw.ShardingWidget.from_array(x); w"))
    comm_id = shown.of_type("comm_open")[0]["content"]["comm_id"]
    shared_kernel.send_state(comm_id, {"selected": [2]})
    assert _ok(shared_kernel.execute("print(w.selected)")).stdout == "[2]\n"
    shared_kernel.send_state(comm_id, {"zoom": 0.5})
    assert _ok(shared_kernel.execute("print(w.zoom)")).stdout == "0.5\n"


def test_sharding_and_mesh_results_display_as_diagrams(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    sharding = _ok(shared_kernel.execute("NamedSharding(mesh, P(None, 'y'))"))
    assert "P(None, 'y')" in html.unescape(sharding.data("text/html")[0])
    mesh_view = _ok(shared_kernel.execute("mesh"))
    assert "Mesh · splits (2, 4)" in mesh_view.data("text/html")[0]
    _ok(shared_kernel.execute("%unload_ext jaxdbg"))
    assert not _ok(shared_kernel.execute("mesh")).data("text/html")


def test_bad_options_leave_the_kernel_usable(shared_kernel):
    _ok(shared_kernel.execute(SETUP + "import jaxdbg_widgets as jdw"))
    wrong = shared_kernel.execute("jdw.visualize_array_sharding(x, max_width=2)")
    assert wrong.error["ename"] == "ValueError" and "max_width" in wrong.error["evalue"]
    assert _ok(shared_kernel.execute("print(1 + 1)")).stdout == "2\n"

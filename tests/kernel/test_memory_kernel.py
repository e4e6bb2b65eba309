"""``%jaxdbg memory params`` inside a real ipykernel: the widget opens with the map, its static
HTML rides along, a click on a leaf (sent as the browser would) brings back its sharding view,
completion offers variable names, and a bad expression is one line."""

import pytest

pytestmark = pytest.mark.kernel

SETUP = """
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
put = lambda shape, spec: jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec))
params = {"w": put((8, 16), P("data", "model")), "embed": put((64, 16), P())}
"""
ANYWIDGET_ID = "jaxdbg_widgets.memory.widget.MemoryWidget"


def _ok(result):
    assert result.error is None, result.error
    return result


def _memory_comm(result):
    opened = [
        m
        for m in result.of_type("comm_open")
        if m["content"]["data"]["state"].get("_anywidget_id") == ANYWIDGET_ID
    ]
    assert len(opened) == 1
    return opened[0]["content"]


def test_memory_magic_shows_the_widget_and_answers_a_leaf_click(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    shown = _ok(shared_kernel.execute("%jaxdbg memory params"))
    comm = _memory_comm(shown)
    view = comm["data"]["state"]["view"]
    assert [path for path, _, _ in view["leaves"]] == ["['embed']", "['w']"]
    assert [d["bytes"] for d in view["devices"]] == [4096 + 64] * 8
    assert view["flagged"] == [0]
    html = shown.data("text/html")
    assert len(html) == 1 and "not reported by CPU devices" in html[0]

    shared_kernel.send_state(comm["comm_id"], {"leaf": 1})
    update = shared_kernel.wait_for(
        lambda m: (
            m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm["comm_id"]
            and "leaf_view" in m["content"]["data"].get("state", {})
        ),
        timeout=30,
    )
    leaf_view = update["content"]["data"]["state"]["leaf_view"]
    assert leaf_view["leaf"] == 1
    assert leaf_view["summary"][2] == "P('data', 'model')"


def test_memory_magic_completes_names_and_reports_errors(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    line = "%jaxdbg memory par"
    shared_kernel.client.complete(line, len(line))
    reply = shared_kernel.client.get_shell_msg(timeout=30)
    assert "params" in reply["content"]["matches"]
    failed = _ok(shared_kernel.execute("%jaxdbg memory no_such_name"))
    assert "%jaxdbg: memory: 'no_such_name' failed: NameError" in failed.stderr
    live = _ok(shared_kernel.execute("%jaxdbg memory"))
    assert "memory map · live arrays" in live.data("text/html")[0]

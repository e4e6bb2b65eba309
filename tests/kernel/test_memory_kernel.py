"""``%jaxdbg memory params`` inside a real ipykernel: a standalone map carrying every leaf's
diagram, the widget's leaf click (sent as the browser would) bringing back its sharding view,
completion offering variable names, and a bad expression in one line."""

import json

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


def _standalone_state(markup):
    return json.loads(markup.split('<script type="application/json">')[1].split("</script>")[0])


def test_memory_magic_shows_a_standalone_map_carrying_every_leaf_diagram(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    shown = _ok(shared_kernel.execute("%jaxdbg memory params"))
    assert not shown.of_type("comm_open")  # no widget: nothing to lose after a restart
    [markup] = shown.data("text/html")
    assert "not reported by CPU devices" in markup  # the static twin
    payload = _standalone_state(markup)
    view = payload["state"]["view"]
    assert [path for path, _, _ in view["leaves"]] == ["['embed']", "['w']"]
    assert [d["bytes"] for d in view["devices"]] == [4096 + 64] * 8
    assert view["flagged"] == [0]
    target, diagrams = payload["derived"]["leaf"]
    assert target == "leaf_view" and sorted(diagrams) == ["0", "1"]
    assert diagrams["1"]["leaf"] == 1 and diagrams["1"]["summary"][2] == "P('data', 'model')"


def test_the_memory_widget_answers_a_leaf_click(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("import jaxdbg_widgets as jdw"))
    shown = _ok(shared_kernel.execute("jdw.memory_map(params).widget()"))
    comm = _memory_comm(shown)
    assert comm["data"]["state"]["view"]["flagged"] == [0]

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
    earlier = shared_kernel.start("answered_first = 1")  # its execute_reply comes first
    reply = shared_kernel.complete("%jaxdbg memory par")
    assert reply["msg_type"] == "complete_reply"
    _ok(shared_kernel.wait(earlier))
    assert earlier.reply["msg_type"] == "execute_reply"
    assert "params" in reply["content"]["matches"]
    failed = _ok(shared_kernel.execute("%jaxdbg memory no_such_name"))
    assert "%jaxdbg: memory: 'no_such_name' failed: NameError" in failed.stderr
    live = _ok(shared_kernel.execute("%jaxdbg memory"))
    assert "memory map · live arrays" in live.data("text/html")[0]

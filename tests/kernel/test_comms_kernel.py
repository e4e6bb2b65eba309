"""``%jaxdbg comms step(w, x)`` inside a real ipykernel: the widget opens with the map of the
call (annotated source lines from the cell), its static HTML rides along, and selecting a line
(sent as the browser would) brings back its collectives' operand and result shardings."""

import json
import re

import pytest

pytestmark = pytest.mark.kernel

SETUP = """
import jax, jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
AxisType = getattr(jax.sharding, "AxisType", None)
auto = {"axis_types": (AxisType.Auto,) * 2} if AxisType else {}
mesh = jax.make_mesh((2, 4), ("data", "model"), **auto)
w = jax.ShapeDtypeStruct((64, 32), jnp.float32, sharding=NamedSharding(mesh, P("model", None)))

def step(w):
    return jax.lax.with_sharding_constraint(w * 2, NamedSharding(mesh, P()))
"""
ANYWIDGET_ID = "jaxdbg_widgets.comms.widget.CommunicationWidget"


def _ok(result):
    assert result.error is None, result.error
    return result


def _standalone_payload(markup):
    return json.loads(markup.split('<script type="application/json">')[1].split("</script>")[0])


def _check_line(view):
    (line,) = view["lines"]
    assert line["line"] is not None
    if line["origin"] == "stack frames":  # the tables name the function; JAX 0.7 writes none
        assert line["function"] == "step"
    else:
        assert line["origin"] == "source metadata"
    assert re.fullmatch(r"line \d+ of In\[\d+\]", line["label"]), line["label"]
    names = [source["name"] for source in view["sources"]]
    assert names and all(re.fullmatch(r"In\[\d+\]", name) for name in names), names
    assert not any(re.match(r"\d+\.py:", c) for c in line["callers"]), line["callers"]
    assert not any("interactiveshell.py" in c for c in line["callers"]), line["callers"]
    texts = [text for source in view["sources"] for _, text in source["lines"]]
    assert any("with_sharding_constraint(w * 2" in text for text in texts)


def _check_diagrams(diagrams):
    assert diagrams["line"] == 0
    (item,) = diagrams["items"]
    # the operand is split over 'model' along the gathered dimension; the result is whole
    assert "'model'" in item["operand"]["summary"][2]
    assert "'model'" not in item["result"]["summary"][2]
    assert len(item["operand"]["cells"]["label"]) == 4
    assert len(item["result"]["cells"]["label"]) == 1


def test_comms_magic_shows_a_standalone_map_carrying_every_lines_diagrams(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    shown = _ok(shared_kernel.execute("%jaxdbg comms step(w)"))
    assert not shown.of_type("comm_open")  # no widget: nothing to lose after a restart
    [markup] = shown.data("text/html")
    assert "1 all-gather" in markup  # the static twin
    payload = _standalone_payload(markup)
    view = payload["state"]["view"]
    assert view["kinds"] == ["all-gather"] and view["axes"] == ["'model'"]
    _check_line(view)
    target, diagrams = payload["derived"]["line"]
    assert target == "line_view" and sorted(diagrams) == ["0"]
    _check_diagrams(diagrams["0"])


def test_the_comms_widget_answers_a_line_pick(shared_kernel):
    _ok(shared_kernel.execute(SETUP))
    _ok(shared_kernel.execute("import jaxdbg_widgets as jdw"))
    shown = _ok(shared_kernel.execute("jdw.communication_map(step, w).widget()"))
    (comm,) = [
        m["content"]
        for m in shown.of_type("comm_open")
        if m["content"]["data"]["state"].get("_anywidget_id") == ANYWIDGET_ID
    ]
    _check_line(comm["data"]["state"]["view"])
    shared_kernel.send_state(comm["comm_id"], {"line": 0})
    update = shared_kernel.wait_for(
        lambda m: (
            m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm["comm_id"]
            and "line_view" in m["content"]["data"].get("state", {})
        ),
        timeout=60,
    )
    _check_diagrams(update["content"]["data"]["state"]["line_view"])


def test_comms_magic_reports_a_call_that_is_not_one(shared_kernel):
    _ok(shared_kernel.execute("%load_ext jaxdbg"))
    failed = _ok(shared_kernel.execute("%jaxdbg comms 1 + 1"))
    assert "%jaxdbg: comms: '1 + 1' is not a call" in failed.stderr

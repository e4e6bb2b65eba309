"""Every widget sends plain JSON: Colab drops binary buffers, so none may depend on them."""

from __future__ import annotations

import pytest

from tests.fixtures.kernel import KernelSession, Message, widget_displayed

pytestmark = pytest.mark.kernel

SETUP = """
%load_ext jaxdbg
import jax, jax.numpy as jnp
import jaxdbg_widgets as jdw
from jax.sharding import NamedSharding, PartitionSpec as P

x = jax.device_put(jnp.zeros((8, 16)), NamedSharding(jax.make_mesh((8,), ("x",)), P("x")))
log = jdw.PrintLog()

@jax.jit
def f(v):
    jdw.print("v = {v}", v=v)
    jax.debug.breakpoint()
    return v + 1
"""


def _widget_messages(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m["msg_type"] in ("comm_open", "comm_msg")]


def _debugger_comm(msg: Message) -> bool:
    state = (
        msg["content"].get("data", {}).get("state", {}) if msg["msg_type"] == "comm_open" else {}
    )
    return "view" in state and "header" in state["view"]


def test_debugger_sharding_and_print_log_widgets_send_no_buffers(kernel: KernelSession) -> None:
    assert kernel.execute(SETUP).error is None
    shown = kernel.execute("jdw.ShardingWidget.from_array(x)\nlog")
    assert shown.error is None, shown.error
    stopped = kernel.start("print(f(jnp.arange(3.0)).tolist())", allow_stdin=True)
    comm_id = kernel.wait_for(_debugger_comm)["content"]["comm_id"]
    kernel.wait_for(widget_displayed(comm_id))
    kernel.send_custom(comm_id, {"type": "rendered"})
    kernel.send_custom(comm_id, {"type": "command", "line": "p v"})
    kernel.send_custom(comm_id, {"type": "command", "line": "c"})
    kernel.wait(stopped)
    assert stopped.error is None, stopped.error
    messages = _widget_messages(shown.messages + stopped.messages + kernel._other)
    models = {
        m["content"]["data"]["state"].get("_model_name")
        for m in messages
        if "state" in m["content"].get("data", {})
    }
    assert len([m for m in messages if m["msg_type"] == "comm_open"]) >= 3, models
    with_buffers = [m["msg_type"] for m in messages if m.get("buffers")]
    assert with_buffers == []

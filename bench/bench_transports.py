"""Click-to-handled latency of the transports, against a plain comm message to an idle kernel.

A real kernel displays a small anywidget. "Handled" means the kernel's answer (a state update
of the widget) is back on iopub. The peer is the same round trip while the kernel is idle;
ours is the round trip while the cell is blocked in ``Inbox.get`` on the main thread, then on
an XLA worker thread. Run with ``python -m bench transports``.
"""

from __future__ import annotations

import os
import queue
import statistics
import time
from typing import Any

from jupyter_client.manager import start_new_kernel

from bench.report import Row

CLICKS = 40
TARGET_MS = 50.0

SETUP = """
import threading
import anywidget, traitlets
import jax, jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
from IPython.display import display
from jaxdbg_widgets.debugger import transports

class Probe(anywidget.AnyWidget):
    _esm = "export default { render() {} }"
    ack = traitlets.Unicode("").tag(sync=True)

probe = Probe()
display(probe)

def answer_idle(widget, content, buffers):
    widget.ack = str(content)

def serve(count):
    with transports.open_inbox(probe) as inbox:
        print("ready", flush=True)
        for _ in range(count):
            probe.ack = str(inbox.get(timeout=60))

sharded = jax.device_put(jnp.arange(8.0), NamedSharding(jax.make_mesh((8,), ("x",)), P("x")))

def serve_on_worker(count):
    jax.jit(lambda v: jax.debug.callback(lambda _: serve(count), v))(sharded)
    jax.effects_barrier()
"""


class _Kernel:
    """Just enough of a front end: run cells, send custom messages, watch iopub."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
        self.manager, self.client = start_new_kernel(kernel_name="python3", env=env)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)

    def run(self, code: str) -> str:
        msg_id = self.client.execute(code)
        self.until(lambda m: _idle_for(m, msg_id))
        self.client.get_shell_msg(timeout=60)
        return msg_id

    def until(self, predicate: Any, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.client.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            if predicate(msg):
                return msg
        raise TimeoutError("the kernel did not answer in time")

    def click(self, comm_id: str, content: Any) -> None:
        data = {"method": "custom", "content": content}
        msg = self.client.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
        self.client.session.send(self.client.shell_channel.socket, msg)

    def round_trips(self, comm_id: str, count: int) -> list[float]:
        """Seconds from sending each click to seeing the widget's answering state update."""
        times = []
        for n in range(count):
            start = time.perf_counter()
            self.click(comm_id, n)
            self.until(lambda m, n=n: _ack_of(m) == str(n))
            times.append(time.perf_counter() - start)
        return times


def _idle_for(msg: dict[str, Any], msg_id: str) -> bool:
    return (
        msg["msg_type"] == "status"
        and msg["content"]["execution_state"] == "idle"
        and msg["parent_header"].get("msg_id") == msg_id
    )


def _ack_of(msg: dict[str, Any]) -> str | None:
    if msg["msg_type"] != "comm_msg":
        return None
    return msg["content"]["data"].get("state", {}).get("ack")


def _blocked_round_trips(kernel: _Kernel, comm_id: str, serve_call: str) -> list[float]:
    msg_id = kernel.client.execute(f"{serve_call}({CLICKS})")
    kernel.until(
        lambda m: (
            m["msg_type"] == "stream"
            and m["parent_header"].get("msg_id") == msg_id
            and "ready" in m["content"]["text"]
        )
    )
    times = kernel.round_trips(comm_id, CLICKS)
    kernel.until(lambda m: _idle_for(m, msg_id))
    kernel.client.get_shell_msg(timeout=60)
    return times


def _comm_id(kernel: _Kernel) -> str:
    msg_id = kernel.client.execute(SETUP)
    opened = kernel.until(
        lambda m: (
            m["msg_type"] == "comm_open"
            and m["content"]["data"]["state"].get("_model_name") == "AnyModel"
        )
    )
    kernel.until(lambda m: _idle_for(m, msg_id))
    kernel.client.get_shell_msg(timeout=60)
    return opened["content"]["comm_id"]


def run() -> list[Row]:
    kernel = _Kernel()
    try:
        comm_id = _comm_id(kernel)
        kernel.run("probe.on_msg(answer_idle)")
        idle = statistics.median(kernel.round_trips(comm_id, CLICKS)) * 1e3
        kernel.run("probe.on_msg(answer_idle, remove=True)")
        main = statistics.median(_blocked_round_trips(kernel, comm_id, "serve")) * 1e3
        worker = statistics.median(_blocked_round_trips(kernel, comm_id, "serve_on_worker")) * 1e3
    finally:
        kernel.close()
    return [
        Row(
            f"click to handled, blocked {where} (median of {CLICKS})",
            ours,
            idle,
            "ms",
            "idle kernel comm_msg",
            f"<= {TARGET_MS:g} ms",
            ours <= TARGET_MS,
        )
        for where, ours in (("main thread", main), ("XLA worker", worker))
    ]

"""Debugger latencies in a real kernel, against JAX's CLI debugger answered through stdin.

* frame click: a ``{"type": "frame"}`` message sent while the cell waits at a breakpoint, to
  the widget's state update showing the new frame on iopub. Peer: typing ``u``/``d`` into the
  CLI debugger (an ``input_reply``) to its next prompt (``input_request``).
* breakpoint to widget: the backend being called (a timestamp printed by a thin wrapper) to
  the widget's ``display_data`` reaching the client. Peer: the same for the CLI's first prompt.

Run with ``python -m bench debugger``.
"""

from __future__ import annotations

import queue
import statistics
import time
from typing import Any

from bench.report import Row
from tests.fixtures.kernel import KernelSession, Message

CLICKS = 30
BREAKPOINTS = 8
CLICK_TARGET_MS = 50.0
DISPLAY_TARGET_MS = 200.0
WIDGET_ID = "jaxdbg_widgets.debugger.widget.DebuggerWidget"

SETUP = """
%load_ext jaxdbg
import time
import jax, jax.numpy as jnp
from jaxdbg_widgets.core import jax_registry

def _stamped(backend):
    def stamped(frames, thread_id, **kwargs):
        print(f"T0 {time.time():.6f}", flush=True)
        backend(frames, thread_id, **kwargs)
    return stamped

jax_registry.register("bench-ours", _stamped(jax_registry.lookup("jaxdbg")), -50)
jax_registry.register("bench-cli", _stamped(jax_registry.lookup("cli")), -51)

def inner(x, backend):
    y = jnp.sin(x) * 2
    jax.debug.breakpoint(backend=backend)
    return y + 1

def outer(x, backend):
    z = x * 3
    return inner(z, backend).sum()

def run(backend):
    return float(jax.jit(outer, static_argnums=1)(jnp.arange(4.0), backend))
"""


def _stamp(msg: Message) -> float | None:
    if msg["msg_type"] != "stream" or not msg["content"]["text"].startswith("T0 "):
        return None
    return float(msg["content"]["text"].split()[1])


def _widget_display(msg: Message) -> str | None:
    if msg["msg_type"] != "display_data":
        return None
    view = msg["content"]["data"].get("application/vnd.jupyter.widget-view+json")
    return view["model_id"] if view else None


class _Bench:
    def __init__(self) -> None:
        self.kernel = KernelSession()
        result = self.kernel.execute(SETUP)
        if result.error is not None:
            raise RuntimeError(f"benchmark setup failed: {result.error['evalue']}")

    def close(self) -> None:
        self.kernel.close()

    def _stdin(self, timeout: float = 60) -> dict[str, Any]:
        return self.kernel.client.get_stdin_msg(timeout=timeout)

    def _answer(self, line: str) -> None:
        self.kernel.client.input(line)

    def _wait_stamp(self) -> float:
        return _stamp(self.kernel.wait_for(lambda m: _stamp(m) is not None, timeout=120))

    def ours_display(self) -> tuple[float, str, Any]:
        """Seconds from backend entry to the widget's display; the comm id and running cell."""
        result = self.kernel.start("run('bench-ours')", allow_stdin=True)
        start = self._wait_stamp()
        shown = self.kernel.wait_for(lambda m: _widget_display(m) is not None, timeout=120)
        return time.time() - start, _widget_display(shown), result

    def cli_display(self) -> tuple[float, Any]:
        result = self.kernel.start("run('bench-cli')", allow_stdin=True)
        start = self._wait_stamp()
        self._stdin(timeout=120)
        return time.time() - start, result

    def ours_clicks(self, comm_id: str) -> list[float]:
        times = []
        for n in range(CLICKS):
            index = (n + 1) % 2
            sent = time.perf_counter()
            self.kernel.send_custom(comm_id, {"type": "frame", "index": index})
            self.kernel.wait_for(lambda m, i=index: _selected(m, comm_id) == i, timeout=60)
            times.append(time.perf_counter() - sent)
        return times

    def cli_clicks(self) -> list[float]:
        times = []
        for n in range(CLICKS):
            sent = time.perf_counter()
            self._answer("u" if n % 2 == 0 else "d")
            self._stdin()
            times.append(time.perf_counter() - sent)
        return times

    def finish_ours(self, comm_id: str, result: Any) -> None:
        self.kernel.send_custom(comm_id, {"type": "command", "line": "c"})
        self.kernel.wait(result, timeout=120)

    def finish_cli(self, result: Any) -> None:
        self._answer("c")
        self.kernel.wait(result, timeout=120)


def _selected(msg: Message, comm_id: str) -> int | None:
    if msg["msg_type"] != "comm_msg" or msg["content"]["comm_id"] != comm_id:
        return None
    view = msg["content"]["data"].get("state", {}).get("view")
    return view["selected"] if view else None


def run() -> list[Row]:
    bench = _Bench()
    try:
        ours_display, cli_display = [], []
        for _ in range(BREAKPOINTS):
            seconds, comm_id, result = bench.ours_display()
            ours_display.append(seconds)
            bench.finish_ours(comm_id, result)
            seconds, result = bench.cli_display()
            cli_display.append(seconds)
            bench.finish_cli(result)
        _, comm_id, result = bench.ours_display()
        ours_clicks = bench.ours_clicks(comm_id)
        bench.finish_ours(comm_id, result)
        _, result = bench.cli_display()
        cli_clicks = bench.cli_clicks()
        bench.finish_cli(result)
    except queue.Empty as err:
        raise RuntimeError("the kernel stopped answering during the benchmark") from err
    finally:
        bench.close()
    click = statistics.median(ours_clicks) * 1e3
    shown = statistics.median(ours_display) * 1e3
    return [
        Row(
            f"frame click to updated widget state (median of {CLICKS})",
            click,
            statistics.median(cli_clicks) * 1e3,
            "ms",
            "jax cli u/d over stdin",
            f"<= {CLICK_TARGET_MS:g} ms",
            click <= CLICK_TARGET_MS,
        ),
        Row(
            f"breakpoint callback to widget displayed (median of {BREAKPOINTS})",
            shown,
            statistics.median(cli_display) * 1e3,
            "ms",
            "jax cli first prompt",
            f"<= {DISPLAY_TARGET_MS:g} ms",
            shown <= DISPLAY_TARGET_MS,
        ),
    ]

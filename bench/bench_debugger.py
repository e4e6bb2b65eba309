"""Debugger latencies in a real kernel, against JAX's CLI debugger answered through stdin.

* frame click: a ``{"type": "frame"}`` message sent while the cell waits at a breakpoint, to
  the widget's state update showing the new frame on iopub. Peer: typing ``u``/``d`` into the
  CLI debugger (an ``input_reply``) to its next prompt (``input_request``).
* breakpoint to widget: the backend being called (a wall time a thin wrapper keeps, read once
  the cell ends) to the widget's ``display_data`` reaching the client. Peer: the same for the
  CLI's first prompt.

* shard session at 8 and 256 simulated devices (model and view state, no kernel): every
  device thread hitting the breakpoint at once to the serialised state holding all of them,
  and a device pick, a compare and a continue-one to the state they produce. Peers: building
  one view per shard (today's one widget per shard) and a frame click in one shard's session.
* shard session in a real kernel (``kernel-shards8``, ``kernel-shards256``): a jitted
  ``shard_map`` over 8 or 256 simulated devices with ``jax.debug.breakpoint()`` in its body;
  the first device's backend entry to the widget's ``display_data`` and to a state holding
  every shard, and a device pick to the state selecting that shard. Peers, in the same kernel:
  the CLI's first prompt and our frame click at one breakpoint.

Run with ``python -m bench debugger``, or one case with ``python -m bench.bench_debugger shards256``.
"""

from __future__ import annotations

import dataclasses
import json
import queue
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.report import Row, format_table
from jaxdbg_widgets.core.frames import Frame
from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import ShardViewBuilder, ViewBuilder
from jaxdbg_widgets.pictures.row import row_pictures
from tests.fixtures.kernel import KernelSession, Message

CLICKS = 30
BREAKPOINTS = 8
DEVICE_PICKS = 20
SHARD_RUNS = {8: 8, 256: 5}
CLICK_TARGET_MS = 50.0
DISPLAY_TARGET_MS = 200.0
WIDGET_ID = "jaxdbg_widgets.debugger.widget.widget.DebuggerWidget"

SETUP = """
%load_ext jaxdbg
import functools, threading, time
import jax, jax.numpy as jnp
from jaxdbg_widgets.core import jax_registry

_stamp = [None]
_stamp_lock = threading.Lock()

def _stamped(backend):
    # wraps: a wrapper of ours is served as ours (frames with globals, a shard's device);
    # the time is kept, not printed: a print from a device thread waits for the kernel's IO
    @functools.wraps(backend)
    def stamped(frames, thread_id, **kwargs):
        now = time.time()
        with _stamp_lock:
            if _stamp[0] is None:
                _stamp[0] = now
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
    _stamp[0] = None
    return float(jax.jit(outer, static_argnums=1)(jnp.arange(4.0), backend))
"""

SHARD_SETUP = """
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh(({count},), ("x",))
data = jax.device_put(jnp.arange({count} * 4.0), NamedSharding(mesh, P("x")))

def body(x):
    y = jnp.sin(x) * 2
    jax.debug.breakpoint(backend="bench-ours")
    return jax.lax.psum(y, "x")

sharded = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P()))

def run_sharded():
    _stamp[0] = None
    return float(sharded(data).sum())
"""


def _widget_display(msg: Message) -> str | None:
    if msg["msg_type"] != "display_data":
        return None
    view = msg["content"]["data"].get("application/vnd.jupyter.widget-view+json")
    return view["model_id"] if view else None


class _Bench:
    def __init__(self, setup: str = SETUP, env: dict[str, str] | None = None) -> None:
        self.kernel = KernelSession(env)
        result = self.kernel.execute(setup, timeout=600)
        if result.error is not None:
            raise RuntimeError(f"benchmark setup failed: {result.error['evalue']}")

    def close(self) -> None:
        self.kernel.close()

    def _stdin(self, timeout: float = 60) -> dict[str, Any]:
        return self.kernel.client.get_stdin_msg(timeout=timeout)

    def _answer(self, line: str) -> None:
        self.kernel.client.input(line)

    def stamp(self) -> float:
        """The wall time the finished cell first entered the backend (its first device's hit)."""
        return float(self.kernel.execute("print(f'{_stamp[0]:.6f}')").stdout)

    def ours_display(self) -> tuple[float, str, Any]:
        """When the widget's display reached the client; the comm id and running cell."""
        result = self.kernel.start("run('bench-ours')", allow_stdin=True)
        shown = self.kernel.wait_for(lambda m: _widget_display(m) is not None, timeout=120)
        return time.time(), _widget_display(shown), result

    def cli_display(self) -> tuple[float, Any]:
        """When the CLI's first prompt reached the client; the running cell."""
        result = self.kernel.start("run('bench-cli')", allow_stdin=True)
        self._stdin(timeout=120)
        return time.time(), result

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

    def shards_display(self, count: int) -> tuple[float, float, str, Any]:
        """When the widget's display and its state holding all ``count`` shards reached the
        client; the comm id and running cell."""
        result = self.kernel.start("run_sharded()", allow_stdin=True)
        seen: dict[str, Any] = {}

        def watch(msg: Message) -> bool:
            now = time.time()
            if _widget_display(msg) is not None:
                seen.setdefault("shown", now)
                seen["comm_id"] = _widget_display(msg)
            if _arrived(msg) == count:
                seen.setdefault("all", now)
            return {"shown", "all"} <= seen.keys()

        self.kernel.wait_for(watch, timeout=300)
        return seen["shown"], seen["all"], seen["comm_id"], result

    def device_picks(self, comm_id: str, count: int) -> list[float]:
        """Seconds from each device pick to the state update selecting that shard."""
        times = []
        for n in range(DEVICE_PICKS):
            index = (n * 7 + 1) % count
            sent = time.perf_counter()
            self.kernel.send_custom(comm_id, {"type": "device", "index": index})
            self.kernel.wait_for(lambda m, i=index: _shard_selected(m, comm_id) == i, timeout=60)
            times.append(time.perf_counter() - sent)
        return times


def _view(msg: Message, comm_id: str | None = None) -> dict[str, Any] | None:
    """The debugger view a comm_open or state update carries (of ``comm_id`` if given)."""
    if msg["msg_type"] not in ("comm_open", "comm_msg"):
        return None
    if comm_id is not None and msg["content"]["comm_id"] != comm_id:
        return None
    return msg["content"].get("data", {}).get("state", {}).get("view")


def _selected(msg: Message, comm_id: str) -> int | None:
    view = _view(msg, comm_id) if msg["msg_type"] == "comm_msg" else None
    return view["selected"] if view else None


def _shards(msg: Message, comm_id: str | None = None) -> dict[str, Any] | None:
    view = _view(msg, comm_id)
    return view.get("shards") if view else None


def _arrived(msg: Message) -> int | None:
    shards = _shards(msg)
    return shards["arrived"] if shards else None


def _shard_selected(msg: Message, comm_id: str) -> int | None:
    shards = _shards(msg, comm_id) if msg["msg_type"] == "comm_msg" else None
    return shards["selected"] if shards else None


def _cli_prompt(bench: _Bench) -> float:
    """One breakpoint answered by JAX's CLI: seconds from the callback to its first prompt."""
    prompt_at, result = bench.cli_display()
    bench.finish_cli(result)
    return prompt_at - bench.stamp()


def _frame_clicks(bench: _Bench) -> list[float]:
    """One breakpoint of ours: the seconds of each frame click to its updated widget state."""
    _, comm_id, result = bench.ours_display()
    clicks = bench.ours_clicks(comm_id)
    bench.finish_ours(comm_id, result)
    return clicks


def kernel_rows() -> list[Row]:
    """The kernel rows: frame click and breakpoint to widget, against JAX's CLI."""
    bench = _Bench()
    try:
        ours_display, cli_display = [], []
        for _ in range(BREAKPOINTS):
            shown_at, comm_id, result = bench.ours_display()
            bench.finish_ours(comm_id, result)
            ours_display.append(shown_at - bench.stamp())
            cli_display.append(_cli_prompt(bench))
        ours_clicks = _frame_clicks(bench)
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


SHARD_COUNTS = (8, 256)
SHARD_CLICKS = 30
SHARD_SOURCE = [
    "def body(x):",
    "    y = jnp.sin(x) * 2",
    "    jax.debug.breakpoint()",
    "    return jax.lax.psum(y, 'x')",
]


def _shard_frames(index: int) -> list[Frame]:
    """The frames one shard's hit carries: a 1,024-element local per shard and its caller."""
    x = np.full(1024, index, np.float32)
    inner = Frame(
        "<cell In[3]>",
        {"x": x, "y": np.sin(x) * 2, "i": index},
        {},
        None,
        SHARD_SOURCE,
        3,
        2,
        "body",
        False,
    )
    outer = Frame("<cell In[4]>", {"data": x}, {}, None, ["f(data)"], 1, 0, "<module>", False)
    return [inner, outer]


def _gather(count: int) -> tuple[float, ShardSession, ShardViewBuilder, list[threading.Thread]]:
    """Seconds from ``count`` device threads hitting the breakpoint at once to the serialised
    view state holding all of them; the session, its builder and the waiting threads."""
    shards = ShardSession(draw_values=row_pictures, expected=count, axis_sizes=(count,))
    builder = ShardViewBuilder(shards)

    def device(index: int) -> None:
        shard = shards.add(
            Session(
                _shard_frames(index),
                thread_id=index,
                shard=ShardPlace((("x", index),), f"CPU {index}"),
            )
        )
        shards.wait(shard)

    threads = [threading.Thread(target=device, args=(i,), daemon=True) for i in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    shards.wait_for_hits(count, quiet=60)
    json.dumps(builder.build())
    return time.perf_counter() - start, shards, builder, threads


def _click(shards: ShardSession, builder: ShardViewBuilder, message: dict[str, Any]) -> float:
    """Seconds from a front-end message to the serialised view state it produces."""
    start = time.perf_counter()
    apply_message(shards, message)
    json.dumps(builder.build())
    return time.perf_counter() - start


def _single_click() -> float:
    """Peer: the same device's frame click in today's one-widget-per-shard session."""
    session = Session(_shard_frames(0), thread_id=0, device="CPU 0 (x=0)")
    builder = ViewBuilder(session)
    times = []
    for n in range(SHARD_CLICKS):
        start = time.perf_counter()
        apply_message(session, {"type": "frame", "index": (n + 1) % 2})
        json.dumps(builder.build())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _single_display(count: int) -> float:
    """Peer: building and serialising the ``count`` separate views that one widget per shard
    needs before every shard is on screen."""
    start = time.perf_counter()
    for index in range(count):
        session = Session(_shard_frames(index), thread_id=index, device=f"CPU {index} (x={index})")
        json.dumps(ViewBuilder(session).build())
    return time.perf_counter() - start


def shard_rows(count: int) -> list[Row]:
    """Gather ``count`` simulated device hits into one shard session and time the user's
    actions on it: device pick, compare, continue one; then release every shard."""
    shown, shards, builder, threads = _gather(count)
    try:
        picks = [
            _click(shards, builder, {"type": "device", "index": (n * 7 + 1) % count})
            for n in range(SHARD_CLICKS)
        ]
        compares = [
            _click(shards, builder, {"type": "compare", "expression": "y.sum()"}) for _ in range(5)
        ]
        one = _click(shards, builder, {"type": "command", "line": f"c {count - 1}"})
    finally:
        apply_message(shards, {"type": "command", "line": "c"})
        for thread in threads:
            thread.join(10)
    peer_click = _single_click()
    command = f"python -m bench.bench_debugger shards{count}"
    rows = [
        (
            f"shard session, {count} devices: hits to view state",
            shown,
            _single_display(count),
            "one view per shard",
            DISPLAY_TARGET_MS,
        ),
        (
            f"shard session, {count} devices: device pick to view state (median of {SHARD_CLICKS})",
            statistics.median(picks),
            peer_click,
            "frame click, one shard",
            CLICK_TARGET_MS,
        ),
        (
            f"shard session, {count} devices: compare y.sum() to view state (median of 5)",
            statistics.median(compares),
            peer_click,
            "frame click, one shard",
            CLICK_TARGET_MS,
        ),
        (
            f"shard session, {count} devices: continue one shard to view state",
            one,
            peer_click,
            "frame click, one shard",
            CLICK_TARGET_MS,
        ),
    ]
    return _millisecond_rows(rows, command)


def _millisecond_rows(rows: list[tuple[str, float, float, str, float]], command: str) -> list[Row]:
    """``(name, ours, peer, peer name, target ms)`` with times in seconds, as rows in ms."""
    return [
        Row(
            name,
            ours * 1e3,
            peer * 1e3,
            "ms",
            peer_name,
            f"<= {target:g} ms",
            ours * 1e3 <= target,
            command,
        )
        for name, ours, peer, peer_name, target in rows
    ]


def kernel_shard_rows(count: int) -> list[Row]:
    """A ``shard_map`` over ``count`` simulated devices in a real kernel: the first device's
    breakpoint to the widget shown and holding every shard, and a device pick to its state.
    Peers, in the same kernel: JAX's CLI first prompt and our frame click, one breakpoint."""
    env = {
        "XLA_FLAGS": f"--xla_force_host_platform_device_count={count}",
        "JAX_PLATFORMS": "cpu",
    }
    bench = _Bench(SETUP + SHARD_SETUP.format(count=count), env)
    try:
        shown, gathered = [], []
        for _ in range(SHARD_RUNS[count]):
            shown_at, all_at, comm_id, result = bench.shards_display(count)
            bench.finish_ours(comm_id, result)
            start = bench.stamp()
            shown.append(shown_at - start)
            gathered.append(all_at - start)
        _, _, comm_id, result = bench.shards_display(count)
        picks = bench.device_picks(comm_id, count)
        bench.finish_ours(comm_id, result)
        cli_display = [_cli_prompt(bench) for _ in range(BREAKPOINTS)]
        frame_clicks = _frame_clicks(bench)
    except queue.Empty as err:
        raise RuntimeError("the kernel stopped answering during the benchmark") from err
    finally:
        bench.close()
    runs = SHARD_RUNS[count]
    cli_prompt = statistics.median(cli_display)
    rows = [
        (
            f"kernel shard_map, {count} devices: first breakpoint callback to widget displayed"
            f" (median of {runs})",
            statistics.median(shown),
            cli_prompt,
            "jax cli first prompt, one breakpoint",
            DISPLAY_TARGET_MS,
        ),
        (
            f"kernel shard_map, {count} devices: first breakpoint callback to widget state with"
            f" all {count} shards (median of {runs})",
            statistics.median(gathered),
            cli_prompt,
            "jax cli first prompt, one breakpoint",
            DISPLAY_TARGET_MS,
        ),
        (
            f"kernel shard_map, {count} devices: device pick to updated widget state"
            f" (median of {DEVICE_PICKS})",
            statistics.median(picks),
            statistics.median(frame_clicks),
            "our frame click, one breakpoint",
            CLICK_TARGET_MS,
        ),
    ]
    command = f"python -m bench.bench_debugger kernel-shards{count}"
    return _millisecond_rows(rows, command)


CASES: dict[str, Callable[[], list[Row]]] = {
    "kernel": lambda: [
        dataclasses.replace(r, command="python -m bench.bench_debugger kernel")
        for r in kernel_rows()
    ],
    **{f"shards{n}": (lambda n=n: shard_rows(n)) for n in SHARD_COUNTS},
    **{f"kernel-shards{n}": (lambda n=n: kernel_shard_rows(n)) for n in SHARD_COUNTS},
}


def run(cases: list[str] | None = None) -> list[Row]:
    """The rows of ``cases`` (all by default), each printing the command that reproduces it."""
    return [row for name in cases or CASES for row in CASES[name]()]


if __name__ == "__main__":
    print(format_table(run(sys.argv[1:])))

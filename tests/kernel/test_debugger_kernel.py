"""The widget debugger inside a real ipykernel, answered like a browser answers it."""

from __future__ import annotations

import re
import textwrap
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from tests.fixtures.kernel import ExecutionResult, KernelSession, Message, widget_displayed

pytestmark = pytest.mark.kernel

WIDGET_ID = "jaxdbg_widgets.debugger.widget.widget.DebuggerWidget"

SETUP = """
%load_ext jaxdbg
import jax, jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((8,), ("i",))
sharded = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("i")))

def inner(x):
    y = jnp.sin(x) * 2
    jax.debug.breakpoint()
    return y + 1

def outer(x):
    z = x * 3
    return inner(z).sum()

def on_worker(x):
    jax.debug.breakpoint()
    return x * 2
"""


def _debugger_open(msg: Message) -> bool:
    if msg["msg_type"] != "comm_open":
        return False
    return msg["content"]["data"]["state"].get("_anywidget_id") == WIDGET_ID


def _view_update(comm_id: str, predicate) -> Any:
    def matches(msg: Message) -> bool:
        if msg["msg_type"] != "comm_msg" or msg["content"]["comm_id"] != comm_id:
            return False
        data = msg["content"]["data"]
        view = data.get("state", {}).get("view") if data.get("method") == "update" else None
        return view is not None and predicate(view)

    return matches


def _widget_view(msg: Message) -> bool:
    return "application/vnd.jupyter.widget-view+json" in msg["content"].get("data", {})


class Debugging:
    """One running cell stopped at a breakpoint, with its widget's comm."""

    def __init__(self, kernel: KernelSession, code: str) -> None:
        self.kernel = kernel
        self.result = kernel.start(textwrap.dedent(code), allow_stdin=True)
        self.next_breakpoint()

    def next_breakpoint(self) -> None:
        """Wait for the next debugger widget to open and be displayed."""
        self.open = self.kernel.wait_for(_debugger_open, timeout=120)
        self.comm_id = self.open["content"]["comm_id"]
        self.view = self.open["content"]["data"]["state"]["view"]
        self.kernel.wait_for(widget_displayed(self.comm_id), timeout=60)

    def send(self, message: dict[str, Any], until=lambda view: True) -> dict[str, Any]:
        self.kernel.send_custom(self.comm_id, message)
        msg = self.kernel.wait_for(_view_update(self.comm_id, until), timeout=60)
        self.view = msg["content"]["data"]["state"]["view"]
        return self.view

    def command(self, line: str) -> dict[str, Any]:
        count = len(self.view["transcript"])
        return self.send(
            {"type": "command", "line": line}, lambda view: len(view["transcript"]) > count
        )

    def finish(self) -> ExecutionResult:
        return self.kernel.wait(self.result, timeout=120)


@pytest.fixture(scope="module")
def dbg_kernel(shared_kernel: KernelSession) -> KernelSession:
    result = shared_kernel.execute(SETUP)
    assert result.error is None, result.error
    return shared_kernel


def test_status_names_our_backend_first(dbg_kernel):
    out = dbg_kernel.execute("%jaxdbg status").stdout
    assert "jaxdbg (+10)" in out
    default = next(line for line in out.splitlines() if line.startswith("default backend"))
    assert default.split()[-1] == "jaxdbg"


def test_main_thread_frame_click_evaluate_continue(dbg_kernel):
    dbg = Debugging(dbg_kernel, "print(jax.jit(outer)(jnp.arange(4.0)))")
    view = dbg.view
    assert view["status"] == "waiting"
    assert view["header"]["function"] == "inner"
    assert view["header"]["thread"] == "main thread"
    functions = [f["function"] for f in view["frames"]][:3]
    assert functions[:2] == ["inner", "outer"]
    assert functions[2] in ("<module>", "<cell line: 0>")  # IPython 7.34 names cell code by line
    assert view["header"]["file"].startswith("In[")
    view = dbg.send({"type": "frame", "index": 1}, lambda v: v["selected"] == 1)
    assert view["header"]["function"] == "outer"
    assert "z" in [row["name"] for row in view["locals"]]
    view = dbg.command("p z.shape")
    assert view["transcript"][-1] == {"command": "p z.shape", "output": "(4,)", "error": False}
    view = dbg.command("p undefined_thing")
    assert view["transcript"][-1]["error"]
    view = dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    expected = float((np.sin(np.arange(4.0) * 3) * 2 + 1).sum())
    assert float(result.stdout) == pytest.approx(expected, rel=1e-5)
    html = result.data("text/html")
    assert html and "p z.shape" in html[-1] and "continued" in html[-1]
    frozen = result.of_type("update_display_data")[-1]["content"]["data"]
    assert set(frozen) == {"text/plain", "text/html"}, "a saved notebook needs no widget state"
    closed = [m for m in result.of_type("comm_close") if m["content"]["comm_id"] == dbg.comm_id]
    assert not closed, "the finished widget stays open for a page reloaded meanwhile"
    last = [
        m["content"]["data"]["state"]["view"]
        for m in result.of_type("comm_msg")
        if m["content"]["comm_id"] == dbg.comm_id
        and "view" in m["content"]["data"].get("state", {})
    ][-1]
    assert last["status"] == "continue" and last["transcript"][-1]["command"] == "c"


def test_the_widget_is_displayed_in_the_running_cell(dbg_kernel):
    dbg = Debugging(dbg_kernel, "jax.jit(outer)(jnp.ones(2)).block_until_ready()")
    dbg.command("c")
    result = dbg.finish()
    assert any(
        "application/vnd.jupyter.widget-view+json" in m["content"]["data"]
        for m in result.of_type("display_data")
    )


def test_quit_shows_debugger_quit_and_the_kernel_stays_usable(dbg_kernel):
    dbg = Debugging(dbg_kernel, "jax.jit(outer)(jnp.ones(2)).block_until_ready()")
    dbg.send({"type": "command", "line": "q"}, lambda v: v["status"] == "quit")
    result = dbg.finish()
    assert result.error is not None
    text = "\n".join(result.error["traceback"])
    assert "DebuggerQuit" in text
    assert "CpuCallback" not in text
    assert "jax.debug.callback failed" not in result.stderr
    assert dbg_kernel.execute("print(1 + 1)").stdout == "2\n"


def _gathered(view: dict[str, Any]) -> bool:
    shards = view.get("shards")
    return bool(shards) and shards["arrived"] == 8


def test_eight_shard_map_hits_gather_in_one_widget(dbg_kernel):
    code = """
    f = jax.jit(jax.shard_map(on_worker, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    print(f(sharded).sum())
    """
    dbg = Debugging(dbg_kernel, code)
    if not _gathered(dbg.view):
        dbg.send({"type": "command", "line": "dev"}, _gathered)
    devices = dbg.view["shards"]["devices"]
    assert [d["label"].split(" (")[1] for d in devices] == [f"i={i})" for i in range(8)]
    assert all(d["label"].startswith("CPU ") for d in devices), "named without jax.set_mesh"
    assert [d["index"] for d in devices] == list(range(8))
    view = dbg.send({"type": "device", "index": 5}, lambda v: v["shards"]["selected"] == 5)
    assert "i=5" in view["header"]["thread"]
    x = next(row for row in view["locals"] if row["name"] == "x")
    assert x["summary"]["min"] == 10
    view = dbg.command("p x.tolist()")
    assert view["transcript"][-1]["output"] == "[10.0, 11.0]"
    view = dbg.send(
        {"type": "compare", "expression": "bool(x[0] == 6)"},
        lambda v: v["shards"]["compare"] is not None,
    )
    rows = view["shards"]["compare"]["rows"]
    assert [r["differs"] for r in rows] == [i == 3 for i in range(8)]
    view = dbg.send(
        {"type": "compare", "expression": "x * 1"},
        lambda v: v["shards"]["compare"]["pictures"] is not None,
    )
    pictures = view["shards"]["compare"]["pictures"]
    assert pictures["scale"]["text"] == "one scale: min 0 … max 15", "one scale for every shard"
    assert [t["position"] for t in pictures["tiles"]] == list(range(8))
    assert pictures["tiles"][3]["summary"] == "float32[2], min 6, max 7"
    view = dbg.send({"type": "command", "line": "c 5"}, lambda v: v["shards"]["waiting"] == 7)
    assert view["shards"]["devices"][5]["state"] == "continue"
    dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "240.0" in result.stdout
    opened = [m for m in result.of_type("comm_open") if _debugger_open(m)]
    assert len(opened) == 1, "one widget for the eight shards"


def test_continue_all_skips_the_rest_of_the_cell(dbg_kernel):
    code = """
    f = jax.jit(jax.shard_map(on_worker, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    print(f(sharded).sum())
    """
    dbg = Debugging(dbg_kernel, code)
    dbg.send({"type": "command", "line": "ca"}, lambda v: v["status"] == "continue_all")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "240.0" in result.stdout
    assert len([m for m in result.of_type("comm_open") if _debugger_open(m)]) == 1


def test_interrupt_while_waiting_ends_with_keyboard_interrupt(dbg_kernel):
    dbg = Debugging(dbg_kernel, "jax.jit(outer)(jnp.ones(2)).block_until_ready()")
    dbg.kernel.interrupt()
    result = dbg.finish()
    assert result.error is not None
    assert "KeyboardInterrupt" in "\n".join(result.error["traceback"])
    assert dbg_kernel.execute("print('alive')").stdout == "alive\n"


def test_interrupt_on_a_worker_thread(dbg_kernel):
    code = """
    f = jax.jit(jax.shard_map(on_worker, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    print(f(sharded).sum())
    """
    dbg = Debugging(dbg_kernel, code)
    dbg.kernel.interrupt()
    result = dbg.finish()
    assert result.error is not None
    assert "KeyboardInterrupt" in "\n".join(result.error["traceback"])
    assert dbg_kernel.execute("print('alive')").stdout == "alive\n"


def test_headless_request_continues_with_a_notice(dbg_kernel):
    result = dbg_kernel.execute("print(jax.jit(outer)(jnp.ones(2)))")
    assert result.error is None, result.error
    assert "jaxdbg: breakpoint at inner" in result.stdout
    assert "headless policy 'continue'" in result.stdout


def test_headless_raise_policy(dbg_kernel):
    result = dbg_kernel.execute(
        "%jaxdbg headless raise\njax.jit(outer)(jnp.ones(2)).block_until_ready()"
    )
    dbg_kernel.execute("%jaxdbg headless continue")
    assert result.error is not None
    assert "DebuggerQuit" in "\n".join(result.error["traceback"])
    assert "headless policy 'raise'" in "\n".join(result.error["traceback"])


def test_script_context_manager_and_magic(dbg_kernel):
    code = """
    import jaxdbg_widgets as jdw
    with jdw.script(["p y.shape", "u", "p z.tolist()", "c"]):
        jax.jit(outer)(jnp.ones(2)).block_until_ready()
    """
    result = dbg_kernel.execute(textwrap.dedent(code))
    assert result.error is None, result.error
    out = result.stdout
    assert "Breakpoint 1 at inner (In[" in out
    assert "(jdb) p y.shape\n(2,)\n(jdb) u\n" in out
    assert "(jdb) p z.tolist()\n[3.0, 3.0]\n(jdb) c\nContinuing." in out
    queued = dbg_kernel.execute("%jaxdbg script p y.sum(); c")
    assert "2 command(s) queued" in queued.stdout
    result = dbg_kernel.execute("jax.jit(outer)(jnp.zeros(2)).block_until_ready()")
    assert "(jdb) p y.sum()\nArray(0., dtype=float32)\n(jdb) c" in result.stdout


def test_cli_backend_still_available(dbg_kernel):
    result = dbg_kernel.execute(
        "from jaxdbg_widgets.core import jax_registry\nprint(jax_registry.lookup('cli').__module__)"
    )
    assert "cli_debugger" in result.stdout


def test_unload_removes_the_backend(kernel):
    kernel.execute("%load_ext jaxdbg")
    out = kernel.execute(
        "from jaxdbg_widgets.core import jax_registry\n"
        "print(jax_registry.lookup('jaxdbg').__name__)\n"
        "%unload_ext jaxdbg\n"
        "print(jax_registry.lookup('jaxdbg').__name__)"
    ).stdout.splitlines()
    assert out[0] == "backend"
    assert out[-1] == "standalone_backend"  # what importing jaxdbg_widgets registers


def test_stdin_tier_answers_typed_commands(kernel):
    kernel.execute(SETUP)
    kernel.execute(
        "from jaxdbg_widgets.debugger.transports import capability\n"
        "capability.widget_tier = lambda kernel: None"
    )
    result = kernel.start("print(jax.jit(outer)(jnp.ones(2)))", allow_stdin=True)
    answers = iter(["p y.shape", "u", "p z.tolist()", "c"])
    prompts = []
    for answer in answers:
        request = kernel.input_request(result)
        prompts.append(request["content"]["prompt"])
        kernel.client.input(answer)
    kernel.wait(result)
    assert result.error is None, result.error
    assert prompts == ["(jdb) "] * 4
    out = result.stdout
    assert "Breakpoint 1 at inner (In[" in out
    assert "(2,)" in out and "[3.0, 3.0]" in out and "Continuing." in out
    assert any(_widget_view(m) for m in result.of_type("display_data"))


def test_core_breakpoint_under_vmap_selects_a_batch_element(dbg_kernel):
    code = """
    import jaxdbg_widgets as jdw
    def per_row(v):
        total = v.sum()
        jdw.breakpoint()
        return total
    print(jax.jit(jax.vmap(per_row))(jnp.arange(6.0).reshape(3, 2)))
    """
    dbg = Debugging(dbg_kernel, code)
    assert dbg.view["header"]["batch"] == {"index": 0, "size": 3, "element": 0}
    view = dbg.send({"type": "batch", "index": 2}, lambda v: v["header"]["batch"]["index"] == 2)
    total = next(row for row in view["locals"] if row["name"] == "total")
    assert total["summary"]["mean"] == 9
    view = dbg.command("p v.tolist()")
    assert view["transcript"][-1]["output"] == "[4.0, 5.0]"
    dbg.command("c")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "[1. 5. 9.]" in result.stdout


NANS_SETUP = """
%jaxdbg nans on
@jax.jit
def log_twice(x):
    y = jnp.log(x)
    return y * 2

bad = jnp.array([-1.0, 1.0])
"""


def test_nans_post_mortem_scripted_then_the_error(dbg_kernel):
    assert dbg_kernel.execute(NANS_SETUP).error is None
    try:
        scripted = dbg_kernel.execute("%jaxdbg script p x; c\nlog_twice(bad)")
        scoped = dbg_kernel.execute(
            "import jaxdbg_widgets\nwith jaxdbg_widgets.script(['p x', 'c']):\n    log_twice(bad)"
        )
        headless = dbg_kernel.execute("log_twice(bad)")
    finally:
        dbg_kernel.execute("%jaxdbg nans off")
    assert "Post-mortem at log_twice" in scripted.stdout
    assert "Breakpoint" not in scripted.stdout
    # the post-mortem is at the origin of the NaN, whose values the search read on the host
    assert "(jdb) p x\narray([-1.,  1.], dtype=float32)" in scripted.stdout
    assert scripted.error["ename"] == "FloatingPointError"
    assert len(scripted.error["traceback"]) == 1
    assert "(jdb) p x\narray([-1.,  1.], dtype=float32)" in scoped.stdout
    assert scoped.error["ename"] == "FloatingPointError"
    assert "jaxdbg" not in headless.stdout, "an unattended run opens no post-mortem"
    assert headless.error["ename"] == "FloatingPointError"
    assert len(headless.error["traceback"]) > 1, "JAX's traceback, not one line"


UNATTENDED_NAN = """
import jax, jax.numpy as jnp
jax.config.update("jax_debug_nans", True)

@jax.jit
def f(x):
    return jnp.log(x) * 2

f(jnp.array([-1.0]))
"""


def _comparable(traceback: list[str]) -> list[str]:
    """A traceback without colours and cell numbers, which differ between two runs."""
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in traceback]
    return [re.sub(r"In ?\[\d+\]", "In[N]", line) for line in plain]


def test_an_unattended_nan_keeps_jaxs_traceback_and_adds_nothing(kernel):
    """nbclient and nbval run cells without stdin: the error reads as it does without us."""
    plain = kernel.execute(UNATTENDED_NAN)
    assert plain.error["ename"] == "FloatingPointError"
    assert kernel.execute("%load_ext jaxdbg").error is None
    loaded = kernel.execute(UNATTENDED_NAN)
    assert loaded.stdout == plain.stdout
    assert "jaxdbg" not in loaded.stdout + loaded.stderr
    assert _comparable(loaded.error["traceback"]) == _comparable(plain.error["traceback"])


COLLECTIVE = """
import jaxdbg_widgets as jdw

def with_psum(x):
    y = x * 2
    {breakpoint}
    return jax.lax.psum(y, "i") + y

collective = jax.jit(jax.shard_map(with_psum, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
print(float(collective(sharded).sum()))
"""

SETTLE_SECONDS = 2.0
"""The shards wait at the breakpoint while the main thread may still compile the cell's next
step (the ``.sum()``); an interrupt there is raised in that Python code before the shards are
released, so the tests interrupt once the main thread waits in XLA."""

NEXT_SHARDED = "print(float(jax.jit(lambda v: (v * 2).sum())(sharded)))"


def _stop_after_one_shard_continued(kernel: KernelSession, breakpoint: str, how: str):
    """Continue one shard (it then waits in the psum), then quit or interrupt the others."""
    dbg = Debugging(kernel, COLLECTIVE.format(breakpoint=breakpoint))
    assert "i=" in dbg.view["header"]["thread"], "the hit names its device"
    dbg.send(
        {"type": "command", "line": "c 2"},
        lambda v: v["shards"]["devices"][2]["state"] != "waiting",
    )
    time.sleep(SETTLE_SECONDS)
    if how == "quit":
        dbg.send({"type": "command", "line": "q"}, lambda v: v["status"] == "quit")
    else:
        kernel.interrupt()
    return dbg.finish()


@pytest.mark.parametrize("breakpoint", ["jax.debug.breakpoint()", "jdw.breakpoint()"])
@pytest.mark.parametrize("how", ["quit", "interrupt"])
def test_stopping_a_shard_before_a_collective_keeps_the_kernel(dbg_kernel, breakpoint, how):
    result = _stop_after_one_shard_continued(dbg_kernel, breakpoint, how)
    assert result.error is not None
    expected = "DebuggerQuit" if how == "quit" else "KeyboardInterrupt"
    assert result.error["ename"] == expected
    assert len(result.error["traceback"]) == 1, "one line, as on the main thread"
    assert "Error in callback" not in result.stderr
    assert "failed" not in result.stderr
    after = dbg_kernel.execute(NEXT_SHARDED, timeout=60)
    assert after.error is None, after.error
    assert after.stdout == "240.0\n"
    assert dbg_kernel.manager.is_alive()


ABORT_WINDOW_SECONDS = 45
"""XLA aborts the process 40 s after a collective loses a participant."""


@pytest.fixture(scope="session")
def outlive_the_abort_window() -> Iterator[list[tuple[KernelSession, float]]]:
    """Kernels, each with the time of its quit, that must still run a sharded step once the
    abort window has passed. They are checked when the session ends, so the wait overlaps the
    other tests instead of adding to them; a failure is an error at the session's teardown."""
    pending: list[tuple[KernelSession, float]] = []
    yield pending
    try:
        for session, quit_at in pending:
            time.sleep(max(0.0, quit_at + ABORT_WINDOW_SECONDS - time.monotonic()))
            assert session.manager.is_alive(), "XLA aborted the kernel after the quit"
            after = session.execute(NEXT_SHARDED, timeout=60)
            assert after.stdout == "240.0\n", ("the kernel's next sharded step failed", after.error)
    finally:
        for session, _ in pending:
            session.close()


def test_a_quit_before_a_collective_causes_no_delayed_abort(outlive_the_abort_window):
    """The kernel must outlive XLA's abort window after the quit (checked at session end)."""
    kernel = KernelSession()
    try:
        assert kernel.execute(SETUP).error is None
        result = _stop_after_one_shard_continued(kernel, "jax.debug.breakpoint()", "quit")
        assert result.error["ename"] == "DebuggerQuit"
    except BaseException:
        kernel.close()
        raise
    outlive_the_abort_window.append((kernel, time.monotonic()))


def test_jax_breakpoint_sees_the_notebook_globals(dbg_kernel):
    assert dbg_kernel.execute("SCALE = 10.0\nimport numpy as np").error is None
    code = """
    def scaled(x):
        jax.debug.breakpoint()
        return x * SCALE
    print(jax.jit(scaled)(jnp.ones(2)))
    """
    dbg = Debugging(dbg_kernel, code)
    view = dbg.command("p float((x * SCALE).sum()), np.pi > 3")
    assert view["transcript"][-1]["output"] == "(20.0, True)"
    dbg.command("c")
    assert dbg.finish().error is None


def test_an_interrupt_stops_a_slow_p_at_a_shard_map_breakpoint(dbg_kernel):
    """The expression runs on the shard session's thread while the main thread waits in XLA."""
    assert dbg_kernel.execute("import time").error is None
    code = """
    f = jax.jit(jax.shard_map(on_worker, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    print(f(sharded).sum())
    """
    dbg = Debugging(dbg_kernel, code)
    dbg.kernel.send_custom(dbg.comm_id, {"type": "command", "line": "p time.sleep(60)"})
    time.sleep(SETTLE_SECONDS)
    dbg.kernel.interrupt()
    result = dbg_kernel.wait(dbg.result, timeout=30)  # well before the sleep could end
    assert result.error is not None and result.error["ename"] == "KeyboardInterrupt"
    assert len(result.error["traceback"]) == 1, "one line, as on the main thread"
    after = dbg_kernel.execute(NEXT_SHARDED, timeout=60)
    assert after.error is None, after.error
    assert after.stdout == "240.0\n"
    assert dbg_kernel.manager.is_alive()

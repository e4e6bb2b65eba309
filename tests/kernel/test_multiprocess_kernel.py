"""A notebook kernel drives 4 ipyparallel engines, one ``jax.distributed`` job of 8 CPU devices:
prints of every process reach the ``%%px`` cell labelled and the notebook's print log."""

import json
import os
import signal

import pytest

from tests.fixtures.kernel import widget_displayed

pytestmark = pytest.mark.kernel

PX_SETUP = """%%px
import jax, numpy as np
import jaxdbg_widgets as jdw
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",))
sharding = NamedSharding(mesh, P("x"))
local = np.arange(2.0) + 10 * jax.process_index()
x = jax.make_array_from_process_local_data(sharding, local)
print("devices", jax.process_index(), jax.device_count(), jax.local_device_count())
"""

PX_PRINTS = """%%px
@jax.jit
def step(x):
    jax.debug.print("shard {x}", x=x, partitioned=True)
    for i in range(3):
        jdw.print("i={i} local={v}", i=i, v=jax.process_index())
    return x * 2

step(x).block_until_ready()
for i in range(3):
    jdw.print("host i={i} p={p}", i=i, p=jax.process_index())
"""


def px_output(result):
    """What a ``%%px`` cell shows: each engine's stream display (``[stdout:N] ...``) as last
    updated, joined; ipyparallel sends them as display_data and update_display_data."""
    shown = {}
    for msg in result.messages:
        if msg["msg_type"] in ("display_data", "update_display_data"):
            key = msg["content"].get("transient", {}).get("display_id") or msg["header"]["msg_id"]
            shown[key] = msg["content"]["data"].get("text/plain", "")
    return "\n".join(shown.values())


LOG_ROWS = """
import json
import os
import signal
log = jdw.session_log()
print(json.dumps([[e.process, e.text, e.cell, e.site] for e in log.snapshot()]))
"""


def test_the_cluster_is_one_job_of_four_processes_with_two_devices_each(cluster_kernel):
    result = cluster_kernel.execute(PX_SETUP, timeout=180)
    assert result.error is None, result.error
    for process in range(4):
        assert f"devices {process} 8 2" in px_output(result)


PX_FILE_NAMES = """%%px
import re

def twice(v):
    return v * 2

text = jax.jit(twice).lower(x).compile().as_text()
print("cell files", sorted(set(re.findall(r'"([^"]*ipykernel_[^"]*)"', text))))
"""


def test_every_process_programs_name_a_cells_file_alike(cluster_kernel):
    result = cluster_kernel.execute(PX_FILE_NAMES, timeout=120)
    assert result.error is None, result.error
    shown = px_output(result).splitlines()
    named = [line[line.index("cell files") :] for line in shown if "cell files" in line]
    assert len(named) == 4 and len(set(named)) == 1, named
    assert named[0].startswith("cell files ['ipykernel_/") and named[0].endswith(".py']")


def test_prints_of_every_process_reach_the_cell_labelled_and_the_log_in_order(cluster_kernel):
    assert cluster_kernel.execute(PX_SETUP, timeout=180).error is None
    cluster_kernel.execute("jdw.session_log().clear()")
    result = cluster_kernel.execute(PX_PRINTS, timeout=180)
    assert result.error is None, result.error
    out = px_output(result)
    for process in range(4):
        for local in range(2):
            assert f"[process {process}] shard [{10 * process + local}.]" in out
        assert f"[process {process}] host i=2 p={process}" in out
    assert "[process 0] i=0 local=0" in out  # an unpartitioned print runs on device 0 only

    rows = json.loads(cluster_kernel.execute(LOG_ROWS).stdout.strip().splitlines()[-1])
    cell = {row[2] for row in rows}
    assert len(cell) == 1 and None not in cell  # all under the %%px cell
    (number,) = cell
    host_sites = {site for _, text, _, site in rows if text.startswith("host")}
    # the %%px cell and its own line (the magic's line is line 1), never an engine's file
    assert host_sites == {f"In[{number}]:11 in <module>"}, host_sites
    by_process = {p: [text for q, text, _, _ in rows if q == p] for p in range(4)}
    for process, texts in by_process.items():
        shards = sorted(t for t in texts if t.startswith("shard"))
        assert shards == [f"shard [{10 * process + local}.]" for local in range(2)]
        host = [t for t in texts if t.startswith("host")]
        assert host == [f"host i={i} p={process}" for i in range(3)]  # in order per process
    assert [t for t in by_process[0] if t.startswith("i=")] == [
        "i=0 local=0",
        "i=1 local=0",
        "i=2 local=0",
    ]


def test_the_log_filters_by_process(cluster_kernel):
    assert cluster_kernel.execute(PX_SETUP, timeout=180).error is None
    cluster_kernel.execute("jdw.session_log().clear()")
    assert cluster_kernel.execute(PX_PRINTS, timeout=180).error is None
    code = "print(sorted({e.text for e in jdw.session_log().filter(process=2)}))"
    texts = cluster_kernel.execute(code).stdout
    assert "host i=0 p=2" in texts and "shard [20.]" in texts
    assert "p=1" not in texts and "[10.]" not in texts
    assert "[0, 1, 2, 3]" in cluster_kernel.execute("print(jdw.session_log().processes())").stdout


# Sharding and memory of every process, drawn in the notebook.

PX_OWN = """%%px
own = jax.device_put(np.ones(jax.process_index() + 1, np.float32), jax.local_devices()[0])
params = {"x": x, "own": own}
"""

JOB_MEMORY = """
import json
from jaxdbg_widgets.multiprocess.memory import cluster_memory_map
m = cluster_memory_map("params")
print(json.dumps([m.source, m.process_totals(), [leaf.path for leaf in m.leaves]]))
"""


def test_a_global_array_and_the_job_memory_are_drawn_in_the_notebook(cluster_kernel):
    assert cluster_kernel.execute(PX_SETUP, timeout=180).error is None
    assert cluster_kernel.execute(PX_OWN, timeout=180).error is None
    shown = cluster_kernel.execute("%jaxdbg cluster sharding x", timeout=60)
    assert shown.error is None, shown.error
    assert shown.data("application/vnd.jupyter.widget-view+json") == []  # lasts a restart
    assert any("jdw-standalone" in html for html in shown.data("text/html"))
    (text,) = [t for t in shown.data("text/plain") if "CPU" in t]
    labels = text.splitlines()[1].replace("┃", "│").strip("│").split("│")
    assert [label.strip().split()[-1] for label in labels] == [f"p{n // 2}" for n in range(8)]
    assert text.splitlines()[1].count("┃") == 3  # 8 devices in a row, 4 processes
    memory = cluster_kernel.execute(JOB_MEMORY, timeout=60)
    assert memory.error is None, memory.error
    source, totals, paths = json.loads(memory.stdout.strip().splitlines()[-1])
    assert source == "pytree of 4 processes"
    assert totals == {str(p): 2 * 4 + 4 * (p + 1) for p in range(4)}  # x's shards, own
    assert paths == ["p0:['own']", "['x']", "p1:['own']", "p2:['own']", "p3:['own']"]
    magic = cluster_kernel.execute("%jaxdbg cluster memory params", timeout=60)
    assert magic.error is None, magic.error
    assert any("per process: process 0: 12 B on 2 devices" in t for t in magic.data("text/plain"))


# The compiles of every process, in one report in the notebook.

PX_COMPILES = """%%px
import jax, numpy as np

def scale_it(v):
    return v * 2

scaled = jax.jit(scale_it)
scaled(np.ones(4, np.float32))
if jax.process_index() == 3:
    scaled(np.ones(5, np.float32))
"""

JOB_COMPILES = """
import json
import jaxdbg_widgets as jdw
r = jdw.cluster_compiles()
rows = sorted((row.name, row.counts["compile"]) for row in r.rows() if "scale_it" in row.name)
causes = [p.cause_text() for p in r.recompiles() if "scale_it" in p.name]
print(json.dumps([rows, causes]))
"""


def test_the_compiles_of_every_process_are_one_report_in_the_notebook(cluster_kernel):
    assert cluster_kernel.execute(PX_COMPILES, timeout=180).error is None
    shown = cluster_kernel.execute(JOB_COMPILES, timeout=60)
    assert shown.error is None, shown.error
    rows, causes = json.loads(shown.stdout.strip().splitlines()[-1])
    # one row per process and call site: process 3 called it again on another line
    assert rows == [[f"p{n}: scale_it", 1] for n in (0, 1, 2, 3, 3)]
    assert causes == ["v: f32[4] → f32[5]"]
    magic = cluster_kernel.execute("%jaxdbg cluster compiles", timeout=60)
    assert magic.error is None, magic.error
    assert any("p3: scale_it" in t for t in magic.data("text/plain"))


PX_SITES = """%%px
def halve(v):
    return jax.lax.psum(v / 2, "x")

halved = jax.jit(jax.shard_map(halve, mesh=mesh, in_specs=P("x"), out_specs=P()))
halved(x)
print("map:", jdw.communication_map(halved, x).summary()[0])
"""

JOB_SITES = """
import json
import jaxdbg_widgets as jdw
sites = {p.call_site.label for p in jdw.cluster_compiles().programs if "halve" in p.name}
print(json.dumps(sorted(sites)))
"""


def test_what_the_engines_draw_names_the_notebooks_cell_and_its_lines(cluster_kernel):
    assert cluster_kernel.execute(PX_SETUP, timeout=180).error is None
    result = cluster_kernel.execute(PX_SITES, timeout=180)
    assert result.error is None, result.error
    number = result.reply["content"]["execution_count"]
    maps = [line for line in px_output(result).splitlines() if "map:" in line]
    assert len(maps) == 4, maps
    assert all(line.endswith(f"from line 3 of In[{number}]") for line in maps), (number, maps)
    shown = cluster_kernel.execute(JOB_SITES, timeout=60)
    assert shown.error is None, shown.error
    assert json.loads(shown.stdout.strip().splitlines()[-1]) == [f"In[{number}]:6"]


# Breakpoints on every process: one widget in the notebook, answered with comm messages.

WIDGET_ID = "jaxdbg_widgets.debugger.widget.widget.DebuggerWidget"

PX_BREAK = """%%px
def on_device(v):
    y = v * 3
    jax.debug.breakpoint()
    return y

stop = jax.jit(jax.shard_map(on_device, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
total = stop(x)
print("total", jax.process_index(), float(total.sum()))
"""
"""Each process's 2 devices hit the breakpoint: 8 hits on 4 processes; x holds 10 p + (0, 1)."""


def _debugger_open(msg):
    return (
        msg["msg_type"] == "comm_open"
        and msg["content"]["data"]["state"].get("_anywidget_id") == WIDGET_ID
    )


class JobDebugging:
    """One running ``%%px`` cell stopped on every process, with the notebook's one widget."""

    def __init__(self, kernel, code=PX_BREAK):
        self.kernel = kernel
        assert kernel.execute(PX_SETUP, timeout=180).error is None
        self.result = kernel.start(code, allow_stdin=True)
        opened = kernel.wait_for(_debugger_open, timeout=180)
        self.comm_id = opened["content"]["comm_id"]
        self.view = opened["content"]["data"]["state"]["view"]
        # a page draws the view only once it is displayed, which comes after its routing starts
        kernel.wait_for(widget_displayed(self.comm_id), timeout=60)
        kernel.send_custom(self.comm_id, {"type": "rendered"})

    def send(self, message, until=lambda view: True, timeout=60):
        self.kernel.send_custom(self.comm_id, message)
        return self.wait(until, timeout)

    def wait(self, until, timeout=60):
        def matches(msg):
            if msg["msg_type"] != "comm_msg" or msg["content"]["comm_id"] != self.comm_id:
                return False
            data = msg["content"]["data"]
            view = data.get("state", {}).get("view") if data.get("method") == "update" else None
            return view is not None and until(view)

        self.view = self.kernel.wait_for(matches, timeout=timeout)["content"]["data"]["state"][
            "view"
        ]
        return self.view

    def command(self, line):
        count = len(self.view["transcript"])
        return self.send(
            {"type": "command", "line": line}, lambda view: len(view["transcript"]) > count
        )

    def finish(self):
        return self.kernel.wait(self.result, timeout=180)


def _every_hit(view):
    return view.get("shards", {}).get("arrived") == 8


def test_a_breakpoint_on_every_process_opens_one_widget_compare_continue_one_and_all(
    cluster_kernel,
):
    dbg = JobDebugging(cluster_kernel)
    if not _every_hit(dbg.view):
        dbg.wait(_every_hit)
    labels = [d["label"] for d in dbg.view["shards"]["devices"]]
    for n, label in enumerate(labels):  # JAX numbers process p's CPU devices from 2048 p
        assert label.startswith(f"process {n // 2}, CPU ") and label.endswith(f"(x={n})"), labels

    view = dbg.send({"type": "device", "index": 5}, lambda v: v["shards"]["selected"] == 5)
    assert view["header"]["thread"].endswith(f"{labels[5]} selected")
    assert dbg.command("p v.tolist()")["transcript"][-1]["output"] == "[21.0]"

    view = dbg.send(
        {"type": "compare", "expression": "float(v[0]) >= 30"},
        lambda v: v["shards"]["compare"] is not None,
    )
    compare = view["shards"]["compare"]
    assert [r["value"] for r in compare["rows"]] == ["False"] * 6 + ["True"] * 2
    assert compare["verdict"] == "shards 6–7 differ: True, 6 others False"
    assert compare["pictures"] is None, "booleans keep the table only"

    view = dbg.send(
        {"type": "compare", "expression": "v * 1.0"},
        lambda v: v["shards"]["compare"]["expression"] == "v * 1.0",
    )
    pictures = view["shards"]["compare"]["pictures"]
    assert pictures["scale"]["text"] == "one scale: min 0 … max 31", "over every process"
    assert [t["label"] for t in pictures["tiles"]] == labels
    assert all(t["png"].startswith("data:image/png;base64,") for t in pictures["tiles"])

    view = dbg.send({"type": "command", "line": "c 5"}, lambda v: v["shards"]["waiting"] == 7)
    assert view["shards"]["devices"][5]["state"] == "continue"
    view = dbg.command("cp 0")
    assert view["shards"]["waiting"] == 5, view["transcript"][-1]
    dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    out = px_output(result)
    for process in range(4):  # 3 x the sum of every process's (10 p, 10 p + 1)
        assert f"total {process} 372.0" in out
    assert len([m for m in result.messages if _debugger_open(m)]) == 1, "one widget for the job"


def test_the_job_debugger_names_the_notebooks_cell_and_its_lines(cluster_kernel):
    dbg = JobDebugging(cluster_kernel)
    if not _every_hit(dbg.view):
        dbg.wait(_every_hit)
    header, source = dbg.view["header"], dbg.view["source"]
    dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    number = result.reply["content"]["execution_count"]
    assert (header["file"], header["line"]) == (f"In[{number}]", 4), header  # the magic is line 1
    assert header["location"] == f"on_device (In[{number}]:4)", header
    assert source["first"] == 2 and "on_device" in source["lines"][0], source  # the def's line
    assert source["current"] == 2 and "breakpoint" in source["lines"][2], source


def test_quit_stops_every_process_and_the_engines_run_the_next_cell(cluster_kernel):
    dbg = JobDebugging(cluster_kernel)
    if not _every_hit(dbg.view):
        dbg.wait(_every_hit)
    dbg.send({"type": "command", "line": "q"}, lambda v: v["status"] == "quit")
    result = dbg.finish()
    assert result.error is not None
    shown = "\n".join(result.error["traceback"]) + px_output(result) + result.stdout + result.stderr
    assert "DebuggerQuit" in shown, (result.error, [m["msg_type"] for m in result.messages], shown)
    after = cluster_kernel.execute(PX_SETUP, timeout=180)
    assert after.error is None, after.error
    for process in range(4):
        assert f"devices {process} 8 2" in px_output(after)


def test_an_interrupt_in_the_notebook_ends_every_process(cluster_kernel):
    dbg = JobDebugging(cluster_kernel)
    if not _every_hit(dbg.view):
        dbg.wait(_every_hit)
    cluster_kernel.interrupt()
    dbg.wait(lambda v: v["status"] == "interrupted", timeout=120)
    dbg.finish()
    after = cluster_kernel.execute(PX_SETUP, timeout=180)
    assert after.error is None, after.error
    for process in range(4):
        assert f"devices {process} 8 2" in px_output(after)


def test_an_engine_killed_at_the_breakpoint_is_named_and_the_others_released(two_engine_kernel):
    kernel, engine_pids = two_engine_kernel
    dbg = JobDebugging(kernel)
    if dbg.view.get("shards", {}).get("arrived") != 4:
        dbg.wait(lambda v: v.get("shards", {}).get("arrived") == 4)
    os.kill(engine_pids[1], signal.SIGKILL)
    result = dbg.finish()
    views = [
        m["content"]["data"]["state"]["view"]
        for m in result.messages
        if m["msg_type"] == "comm_msg"
        and m["content"]["comm_id"] == dbg.comm_id
        and "view" in m["content"]["data"].get("state", {})
    ]
    final = views[-1] if views else dbg.view
    shown = px_output(result) + result.stdout + result.stderr
    died = [row["output"] for row in final["transcript"] if "died" in row["output"]]
    assert died and died[0].startswith("process 1 died"), (
        final["status"],
        final["transcript"],
        shown[-3000:],
    )
    assert final["shards"]["devices"][2]["label"].endswith("(died)")
    assert result.error is not None
    assert "Ended: ProcessLost: process 1 died: engine 1" in shown, shown[-3000:]


def test_cells_after_the_cluster_stopped_ask_no_engine_and_raise_nothing(two_engine_kernel):
    kernel, _ = two_engine_kernel
    stopped = kernel.execute("rc.cluster.stop_cluster_sync()\nsent = len(rc.history)", timeout=60)
    assert stopped.error is None, stopped.error
    after = kernel.execute("print(rc.ids, len(rc.history) - sent)", timeout=60)
    assert after.error is None, after.error
    assert after.stdout.strip() == "[0, 1] 0"  # the client still lists them; none was asked

"""One notebook for every process: cluster start-up, 10,000 prints over 4 processes, and a
breakpoint hit on 4 processes answered from the notebook.

The prints row compares, in the same run, 4 ipyparallel engines joined by ``jax.distributed``
with the extension loaded (every print labelled, forwarded as engine stdout and taken into one
log, in order per process) against 4 plain processes that each run the same jitted loop with
JAX's own ``jax.debug.print`` writing to their own stdout (a pipe). Both are wall-clock from
the start of the loops until every print is where it goes. Start-up (engines joined by
``jax.distributed``, the extension loaded) is compared with a plain ipyparallel cluster of as
many engines started in the same run.

The breakpoint rows run the notebook's side of the job's debugger in this process: the watcher
that polls the engines, and the one session it opens. "Hit to view" is from the last engine's
hit (stamped on the engine by a callback the breakpoint depends on) to the job's view, every
process in its selector, built here; "command to answer" is one ``p v`` sent to an engine and
its answer back, beside ipyparallel's own round trip to one engine. No other tool shows one
view of a breakpoint hit on every process, so that row has an absolute target. There is no
widget here, so the widget's own drawing is not included.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import threading
import time

from bench.report import Row

ENGINES = 4
PRINTS = 10_000
ROUNDS = 3
MAX_RATIO = 2.0
BREAK_ROUNDS = 5
COMMANDS = 20
MAX_HIT_TO_VIEW = 0.5
MAX_COMMAND = 0.1
MAX_STARTUP_RATIO = 3.0
COMMAND = "python -m bench multiprocess"

LOOP = """
import jax, sys, time
@jax.jit
def run(n):
    def body(i, total):
        jax.debug.print("step {i} total {t}", i=i, t=total)
        return total + i
    return jax.lax.fori_loop(0, n, body, 0)
run(1).block_until_ready()
"""

_PLAIN = (
    LOOP
    + """
n = int(sys.argv[1])
start = time.perf_counter()
run(n).block_until_ready()
sys.stdout.flush()
print("elapsed", time.perf_counter() - start, file=sys.stderr)
"""
)


def _plain_round(per_process: int) -> float:
    """4 processes each printing ``per_process`` lines to their own stdout: the slowest loop."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _PLAIN, str(per_process)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(ENGINES)
    ]
    elapsed = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert out.count("step ") == per_process + 1, err[-500:]  # one warm-up print
        elapsed.append(float(err.strip().splitlines()[-1].split()[1]))
    return max(elapsed)


_engine_scope: dict = {}
"""On each engine: the jitted loop, compiled and warmed up once by ``_engine_warm``."""


def _engine_warm() -> None:
    exec(LOOP, _engine_scope)


def _engine_loop(n: int) -> None:
    """Runs on each engine: the same jitted loop, through the extension's print."""
    _engine_scope["run"](n).block_until_ready()


def _cluster_round(rc, per_process: int) -> float:
    """The same prints on the engines, until every one is in one log, in order per process."""
    from jaxdbg_widgets.core.sinks import PrintRecord
    from jaxdbg_widgets.multiprocess import engine
    from jaxdbg_widgets.notebook.printlog import PrintBuffer

    view = rc[:]
    view.apply_sync(engine.take_prints)
    log = PrintBuffer(capacity=PRINTS, attach=False)
    start = time.perf_counter()
    view.apply_sync(_engine_loop, per_process)
    for answer in view.apply_sync(engine.take_prints):
        for fields in answer["records"]:
            log.add_from(PrintRecord(*fields), None)
    elapsed = time.perf_counter() - start
    assert log.seen == PRINTS, log.seen
    for process in range(ENGINES):
        steps = [int(e.text.split()[1]) for e in log.filter(process=process)]
        assert steps == list(range(per_process)), process
    return elapsed


BREAK = """
import jax, time, numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P
mesh = jax.make_mesh((jax.device_count(),), ("x",))
x = jax.make_array_from_process_local_data(
    NamedSharding(mesh, P("x")), np.arange(1.0) + 10 * jax.process_index()
)
hit_times = []

def stamp(v):
    hit_times.append(time.time())
    return v

def on_device(v):
    v = jax.pure_callback(stamp, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
    jax.debug.breakpoint()
    return v * 3

stop = jax.jit(jax.shard_map(on_device, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
"""


def _engine_break_setup() -> None:
    exec(BREAK, _engine_scope)


def _engine_stop() -> float:
    """Runs on each engine: the breakpoint on its device; the time its hit was stamped."""
    _engine_scope["hit_times"].clear()
    _engine_scope["stop"](_engine_scope["x"]).block_until_ready()
    return max(_engine_scope["hit_times"])


def _breakpoint_round(rc, link) -> tuple[float, list[float]]:
    """One hit on every engine: hit to the job's view here, and each command's round trip."""
    from jaxdbg_widgets.debugger.session.base import Resume
    from jaxdbg_widgets.debugger.view.builders import builder_for
    from jaxdbg_widgets.multiprocess.breaks import Watcher

    seen: dict[str, float] = {}
    commands: list[float] = []
    done = threading.Event()

    def serve(session) -> Resume:
        with session.changed:
            session.changed.wait_for(lambda: len(session.processes) == ENGINES, 60)
        builder_for(session).build()
        seen["view"] = time.time()
        for _ in range(COMMANDS):
            start = time.perf_counter()
            entry = session.run("p v")
            commands.append(time.perf_counter() - start)
            assert not entry.error, entry.output
        session.run("c")
        done.set()
        return session.resume

    watcher = Watcher(link, serve)
    pending = rc[:].apply_async(_engine_stop)
    watcher.start()
    try:
        hit = max(pending.get(timeout=120))
        assert done.wait(60)
    finally:
        watcher.stop()
    return seen["view"] - hit, commands


def _breakpoints(rc) -> tuple[float, float]:
    """Median hit-to-view and command-to-answer times over :data:`BREAK_ROUNDS` rounds."""
    from jaxdbg_widgets.multiprocess import engine
    from jaxdbg_widgets.multiprocess.breaks import EngineLink

    view = rc[:]
    view.apply_sync(_engine_break_setup)
    processes = view.apply_sync(engine.process_index)
    link = EngineLink(rc, dict(zip(processes, rc.ids, strict=True)))
    hits, commands = [], []
    for _ in range(BREAK_ROUNDS):
        hit, answered = _breakpoint_round(rc, link)
        hits.append(hit)
        commands += answered
    return statistics.median(hits), statistics.median(commands)


def _echo() -> int:
    return 1


def _round_trip(rc) -> float:
    """Median time of ipyparallel's own call to one engine and its answer."""
    times = []
    for _ in range(COMMANDS):
        start = time.perf_counter()
        rc[0].apply_sync(_echo)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _plain_startup(profile: str) -> float:
    """Seconds to start a plain ipyparallel cluster of :data:`ENGINES` engines and connect."""
    import ipyparallel as ipp

    start = time.perf_counter()
    cluster = ipp.Cluster(n=ENGINES, profile_dir=profile, cluster_id="plain", log_level=40)
    rc = cluster.start_and_connect_sync()
    rc.wait_for_engines(ENGINES, timeout=120)
    took = time.perf_counter() - start
    cluster.stop_cluster_sync()
    return took


def run() -> list[Row]:
    import jaxdbg_widgets as jdw

    per_process = PRINTS // ENGINES
    with tempfile.TemporaryDirectory() as profile:
        start = time.perf_counter()
        rc = jdw.cluster(ENGINES, 1, profile_dir=profile, cluster_id="bench", log_level=40)
        startup = time.perf_counter() - start
        try:
            rc[:].apply_sync(_engine_warm)
            ours = min(_cluster_round(rc, per_process) for _ in range(ROUNDS))
            hit_to_view, command = _breakpoints(rc)
            round_trip = _round_trip(rc)
        finally:
            rc.shutdown(hub=False, block=True)
            rc.cluster.stop_cluster_sync()
        plain_startup = _plain_startup(profile)
    peer = min(_plain_round(per_process) for _ in range(ROUNDS))
    return [
        Row(
            f"{PRINTS:,} prints over {ENGINES} processes, all in one log",
            ours,
            peer,
            "s",
            "each process to its own stdout",
            f"<= {MAX_RATIO:g}x",
            ours <= MAX_RATIO * peer,
            COMMAND,
        ),
        Row(
            f"breakpoint hit on {ENGINES} processes to the job's view in the notebook (median)",
            hit_to_view,
            None,
            "s",
            "",
            f"< {MAX_HIT_TO_VIEW:g} s",
            hit_to_view < MAX_HIT_TO_VIEW,
            COMMAND,
        ),
        Row(
            "command to an engine at a breakpoint and its answer (median)",
            command,
            round_trip,
            "s",
            "ipyparallel apply to one engine",
            f"< {MAX_COMMAND:g} s",
            command < MAX_COMMAND,
            COMMAND,
        ),
        Row(
            f"cluster start-up: {ENGINES} engines joined, extension loaded",
            startup,
            plain_startup,
            "s",
            f"plain ipyparallel, {ENGINES} engines",
            f"<= {MAX_STARTUP_RATIO:g}x",
            startup <= MAX_STARTUP_RATIO * plain_startup,
            COMMAND,
        ),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)

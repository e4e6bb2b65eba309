"""One debugger session for the hits of every process: engine desks driven through a fake link.

Each of 4 "processes" is a :class:`Desk` holding the gathered shards of its 2 devices, served on
threads as an engine serves them; the :class:`ClusterSession` reaches them only through the
link, as the notebook reaches the engines over their control channels.
"""

from __future__ import annotations

import threading
import time
import typing

import numpy as np
import pytest

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.cluster import ClusterSession
from jaxdbg_widgets.debugger.session.cluster_link import ProcessLost
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.builders import builder_for
from jaxdbg_widgets.multiprocess import desk_schema
from jaxdbg_widgets.multiprocess.desk import Desk, Ended
from jaxdbg_widgets.pictures.row import row_pictures

from ..debugger.conftest import jax_frames
from ..pictures.test_row import _png

PROCESSES = 4
DEVICES = 2


def schema_errors(value, declared, where="") -> list[str]:
    """How ``value`` breaks the TypedDict ``declared``: missing or unknown keys, at any depth
    where the declaration nests TypedDicts (alone, in a list, or or-None)."""
    if not typing.is_typeddict(declared):
        inner = [a for a in typing.get_args(declared) if a is not type(None)]
        if typing.get_origin(declared) is list and value is not None:
            return [
                e
                for n, item in enumerate(value)
                for e in schema_errors(item, inner[0], f"{where}[{n}]")
            ]
        if len(inner) == 1 and value is not None and typing.get_origin(declared) is not list:
            return schema_errors(value, inner[0], where)
        return []
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not {declared.__name__}"]
    hints = typing.get_type_hints(declared)
    errors = [f"{where}.{k}: missing" for k in declared.__required_keys__ if k not in value]
    errors += [f"{where}.{k}: not in {declared.__name__}" for k in value if k not in hints]
    for key in value.keys() & hints.keys():
        errors += schema_errors(value[key], hints[key], f"{where}.{key}")
    return errors


class DeskLink:
    """The link as the notebook sees it; a process in ``dead`` no longer answers. Every request
    and reply is checked against the desk's schema."""

    def __init__(self, desks: dict[int, Desk]) -> None:
        self.desks = desks
        self.dead: set[int] = set()
        self.asked: list[tuple[int, str]] = []

    def ask(self, process, request):
        self.asked.append((process, request["op"]))
        assert schema_errors(request, desk_schema.DeskRequest) == []
        if process in self.dead:
            raise ProcessLost(f"engine {process} did not answer")
        reply = self.desks[process].answer(request)
        declared = (
            desk_schema.ErrorReply if "error" in reply else desk_schema.REPLIES[request["op"]]
        )
        assert schema_errors(reply, declared) == [], request["op"]
        return reply


class Job:
    """4 desks, each serving its shards on a thread, and the one session over them."""

    def __init__(self, y_of=lambda device: float(device)) -> None:
        self.desks = {p: Desk(lambda p=p: p) for p in range(PROCESSES)}
        self.outcomes: dict[int, object] = {}
        self.threads = []
        for process, desk in self.desks.items():
            shards = ShardSession(
                draw_values=row_pictures,
                expected=PROCESSES * DEVICES,
                axis_sizes=(PROCESSES * DEVICES,),
            )
            for local in range(DEVICES):
                device = process * DEVICES + local
                frames = jax_frames(x=np.full(4, device, np.float32), y=y_of(device), scale=2.0)
                place = ShardPlace((("x", device),), f"CPU {device}")
                shards.add(Session(frames, thread_id=100 + device, shard=place))
            thread = threading.Thread(target=self._serve, args=(process, desk, shards))
            thread.start()
            self.threads.append(thread)
        self.link = DeskLink(self.desks)
        self.session = ClusterSession(self.link)
        self.feed()

    def _serve(self, process, desk, shards):
        try:
            self.outcomes[process] = desk.serve(shards)
        except Ended as ended:
            self.outcomes[process] = ended

    def feed(self):
        """What the notebook's watcher does on each poll."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            states = {p: d.answer({"op": "state"}) for p, d in self.desks.items()}
            for state in states.values():
                assert schema_errors(state, desk_schema.StateReply) == []
            if all(s["hits"] or p in self.outcomes for p, s in states.items()):
                break
            time.sleep(0.01)
        for process, state in states.items():
            if state["hits"]:
                self.session.arrive(process, state["hits"][0])
            else:
                self.session.released(process)

    def join(self, processes=range(PROCESSES)):
        for process in processes:
            self.threads[process].join(10)
            assert not self.threads[process].is_alive()


@pytest.fixture
def job():
    job = Job()
    yield job
    if job.session.resume is None:
        job.session.resume = Resume.QUIT
    job.join()


def test_every_process_hits_are_one_session_in_process_and_device_order(job):
    session = job.session
    assert [label for _, label, _ in session.hit_rows()] == [
        f"process {p}, CPU {2 * p + i} (x={2 * p + i})" for p in range(4) for i in range(2)
    ]
    listing = session.run("dev").output
    assert listing.startswith("8 hits on 4 processes, 8 waiting")
    assert ">   0  process 0, CPU 0 (x=0) (waiting)" in listing
    assert session.run("proc").output.splitlines()[0] == "4 processes hold hits"
    assert session.resume is None


def test_commands_run_on_the_shown_process_and_dev_switches_process_and_device(job):
    session = job.session
    assert session.run("p y").output == "0.0"
    session.run("dev 5")
    assert session.device == "process 2, CPU 5 (x=5)"
    assert session.run("p y").output == "5.0"
    assert session.run("p float(x.sum())").output == "20.0"
    session.run("proc 3")
    assert session.run("p y").output == "6.0"
    assert session.rows[-1]["command"] == "[process 3] p y"


def test_compare_tabulates_every_hit_of_every_process_and_marks_the_odd_one():
    job = Job(y_of=lambda device: 7.0 if device == 5 else 1.0)
    try:
        rows = job.session.compare("y")
        assert [r.value for r in rows] == ["1.0"] * 5 + ["7.0"] + ["1.0"] * 2
        assert [r.differs for r in rows] == [False] * 5 + [True] + [False] * 2
        assert rows[5].label == "process 2, CPU 5 (x=5)"
        text = job.session.run("compare y * 1.0000001").output
        assert text.splitlines()[-1] == "shard 5 differs: 7.0000007, 7 others 1.0000001"
        assert job.session.run("compare scale").output.endswith("all 8 shards agree: 2.0")
    finally:
        job.session.resume = Resume.QUIT
        job.join()


def test_continue_one_hit_then_one_process_then_all(job):
    session = job.session
    assert "7 still waiting" in session.run("c 3").output
    assert job.desks[1].answer({"op": "state"})["hits"][0]["devices"][1]["state"] == "continue"
    assert 1 not in job.outcomes  # process 1's other device still waits
    assert "5 still waiting" in session.run("cp 2").output
    job.join([2])
    assert job.outcomes[2] is Resume.CONTINUE
    assert session.resume is None
    session.run("c")
    job.join()
    assert set(job.outcomes.values()) == {Resume.CONTINUE}
    assert session.resume is Resume.CONTINUE


def test_continuing_every_device_of_every_process_one_by_one_ends_the_session(job):
    session = job.session
    for n in range(8):
        session.run(f"c {n}")
    job.join()
    assert session.resume is Resume.CONTINUE
    assert set(job.outcomes.values()) == {Resume.CONTINUE}


def test_quit_stops_every_process(job):
    assert job.session.run("q").output == "Quitting: every process of the job is stopped."
    job.join()
    assert set(job.outcomes.values()) == {Resume.QUIT}
    assert job.session.resume is Resume.QUIT


def test_an_interrupt_ends_every_process_hits_with_its_reason(job):
    job.session.end(KeyboardInterrupt("the notebook cell was interrupted"))
    job.join()
    assert all(isinstance(o, Ended) for o in job.outcomes.values())
    assert "interrupted" in str(job.outcomes[0])


def test_a_process_that_died_is_named_and_the_others_are_stopped(job):
    job.link.dead.add(2)
    job.session.lost(2, "engine 2 did not answer for 10 s")
    job.join([0, 1, 3])
    assert all(isinstance(job.outcomes[p], Ended) for p in (0, 1, 3))
    assert "process 2 died" in str(job.outcomes[0])
    states = [state for _, _, state in job.session.hit_rows()]
    assert states[4:6] == ["interrupted", "interrupted"]
    assert any("process 2 died" in r["output"] for r in job.session.rows)
    job.link.dead.clear()
    job.desks[2].answer({"op": "end", "token": 1, "resume": "quit"})


def test_the_widget_messages_pick_compare_and_continue_across_processes(job):
    session = job.session
    apply_message(session, {"type": "device", "index": 6})
    assert session.device == "process 3, CPU 6 (x=6)"
    apply_message(session, {"type": "compare", "expression": "y"})
    assert session.rows[-1]["output"].startswith("no most common value: 8 values tie")
    apply_message(session, {"type": "command", "line": "c 6"})
    view = builder_for(session).build()
    block = view["shards"]
    assert block["arrived"] == 8 and block["waiting"] == 7
    assert block["devices"][6] == {
        "label": "process 3, CPU 6 (x=6)",
        "index": 6,
        "state": "continue",
    }
    assert block["selected"] == 7  # the next waiting hit is shown
    assert view["header"]["location"]  # the shown process's own view, built on that process
    assert block["compare"]["rows"][6]["value"] == "(continued)"


def test_the_headless_policy_answers_every_process(job):
    job.session.resume = Resume.CONTINUE
    job.join()
    assert set(job.outcomes.values()) == {Resume.CONTINUE}


def test_a_bad_request_to_a_desk_is_an_error_reply_not_a_failure(job):
    assert job.desks[0].answer("state") == {
        "error": "TypeError: a desk request must be an object with an 'op'"
    }
    assert "no breakpoint 99" in job.desks[0].answer({"op": "view", "token": 99})["error"]
    entry = job.session.run("cp x")
    assert entry.error and "cp needs a process number: cp 2" in entry.output


def test_a_hit_that_went_on_meanwhile_reads_continued_not_an_error(job):
    held = job.desks[1].answer({"op": "state"})["hits"][0]
    job.desks[1].answer({"op": "continue", "token": held["token"], "index": None})
    job.join([1])
    assert job.desks[1].answer({"op": "view", "token": held["token"]})["gone"]
    job.session.run("dev 2")  # asks process 1, whose hit is gone
    states = [state for _, _, state in job.session.hit_rows()]
    assert states[2:4] == ["continue", "continue"]
    assert not any(r["error"] for r in job.session.rows)


def test_a_late_answer_is_a_command_error_and_never_a_death(job):
    def late(process, request):
        raise TimeoutError(f"engine {process} did not answer within 10 s")

    answer = job.link.ask
    job.link.ask = late
    entry = job.session.run("p y")
    assert entry.error and "did not answer within 10 s" in entry.output
    assert not any(hits.died for hits in job.session.processes.values())
    job.link.ask = answer
    assert job.session.run("p y").output == "0.0"


def test_compare_of_arrays_across_processes_draws_one_row_on_one_scale(job):
    session = job.session
    session.run("compare x * 1.0")
    row = builder_for(session).build()["shards"]["compare"]["pictures"]
    assert row["scale"]["text"] == "one scale: min 0 … max 7", "over every process's hits"
    assert [t["label"] for t in row["tiles"]] == [
        f"process {p}, CPU {2 * p + i} (x={2 * p + i})" for p in range(4) for i in range(2)
    ]
    assert [t["position"] for t in row["tiles"]] == list(range(8))
    assert row["tiles"][5]["summary"] == "float32[4], min 5, max 5"
    pixels = [_png(t["png"])[1] for t in row["tiles"]]
    assert len({p.tobytes() for p in pixels}) == 8, "each device's value its own colour"
    pictures_asked = [process for process, op in job.link.asked if op == "pictures"]
    assert pictures_asked == [0, 1, 2, 3], "one drawing request per process"


def test_a_compare_of_scalars_or_after_a_continue_keeps_the_table_only(job):
    session = job.session
    session.run("compare y")
    assert builder_for(session).build()["shards"]["compare"]["pictures"] is None
    session.run("c 3")
    session.run("compare x")
    row = builder_for(session).build()["shards"]["compare"]["pictures"]
    assert [t["position"] for t in row["tiles"]] == [0, 1, 2, 4, 5, 6, 7]
    session.run("c 4")
    kept = builder_for(session).build()["shards"]["compare"]
    assert kept["rows"][4]["value"] == "(continued)" and kept["pictures"] == row


def test_a_process_that_cannot_draw_leaves_the_table_without_pictures(job):
    answer = job.link.ask

    def no_pictures(process, request):
        if request["op"] == "pictures" and process == 2:
            return {"error": "RuntimeError: out of memory"}
        return answer(process, request)

    job.link.ask = no_pictures
    rows = job.session.compare("x")
    assert len(rows) == 8 and job.session.compared.pictures is None
    job.link.ask = answer

"""Gathering the shards of a real 8-device shard_map into one session, served once."""

from __future__ import annotations

import threading
import time

import jax
import numpy as np
import pytest
from jax import numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.serve import shard_serving
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session

from .conftest import jax_frames


class Scripted:
    """A backend that gathers shard hits and answers the one shard session with commands."""

    def __init__(self, commands: list[str]) -> None:
        self.commands = commands
        self.served: list[ShardSession] = []
        self.outputs: list[str] = []
        self.answers: dict[str, Resume] = {}
        self.threads: set[int] = set()
        self._lock = threading.Lock()

    def serve(self, shards: ShardSession) -> Resume | None:
        self.served.append(shards)
        for command in self.commands:
            self.outputs.append(shards.run(command).output)
            if shards.resume is not None:
                break
        return shards.resume

    def __call__(self, frames, thread_id, **kwargs):
        session = Session(
            frames, thread_id=thread_id, device=kwargs.get("device"), shard=kwargs.get("shard")
        )
        resume = shard_serving.serve_hit(session, "run", kwargs["axis_sizes"], self.serve)
        with self._lock:
            self.answers[kwargs["device"]] = resume
            self.threads.add(threading.get_ident())


@pytest.fixture
def scripted():
    backends = []

    def make(commands):
        backend = Scripted(commands)
        backends.append(jax_registry.register("test-shards", backend, -100))
        return backend

    yield make
    for undo in backends:
        undo()


MESH = jax.make_mesh((8,), ("i",))
LABELS = [f"CPU {d.id} (i={i})" for i, d in enumerate(MESH.devices.flat)]


def _program():
    mesh = MESH
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("i")))

    def body(block):
        y = block * 2
        jdw.breakpoint(backend="test-shards")
        return jax.lax.psum(y, "i")

    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P()))
    return f, x


def test_eight_shards_are_served_as_one_session_and_the_collective_completes(scripted):
    backend = scripted(["dev", "compare bool(y[0] == 20)", "dev 3", "p float(y[1])", "c 3", "c"])
    f, x = _program()
    result = np.asarray(f(x))
    assert len(backend.served) == 1
    assert backend.outputs[0].startswith("8 of 8 shards gathered, 8 waiting")
    compared = backend.outputs[1].splitlines()
    assert compared == [
        "bool(y[0] == 20) in 8 shards:",
        "  shards 0–4, 6–7: False",
        "! shard 5: True",
        "shard 5 differs: True, 7 others False",
    ]
    assert backend.outputs[3] == "14.0"
    assert backend.outputs[4] == f"Continuing {LABELS[3]}; 7 still waiting."
    assert sorted(backend.answers) == sorted(LABELS)
    assert set(backend.answers.values()) == {Resume.CONTINUE}
    np.testing.assert_allclose(result, (np.arange(16.0) * 2).reshape(8, 2).sum(0))


def test_quit_releases_every_shard_and_the_run_still_finishes(scripted):
    backend = scripted(["q"])
    f, x = _program()
    np.asarray(f(x))
    assert len(backend.served) == 1
    answers = sorted(backend.answers.values())
    assert answers == [Resume.CONTINUE_ALL] * 7 + [Resume.QUIT], "one shard carries the quit"


def test_a_second_run_opens_a_new_session(scripted):
    backend = scripted(["c"])
    f, x = _program()
    np.asarray(f(x))
    np.asarray(f(x))
    assert len(backend.served) == 2


def _device_hit(index: int) -> Session:
    return Session(jax_frames(y=float(index)), thread_id=index, shard=ShardPlace((("x", index),)))


def _serve_in_threads(count: int, serve, *, gap: float = 0.0) -> list[Resume]:
    """``count`` device threads, started ``gap`` seconds apart, each serving its hit."""
    answers: list[Resume] = []

    def device(index: int) -> None:
        answers.append(shard_serving.serve_hit(_device_hit(index), "run", (count,), serve))

    threads = [threading.Thread(target=device, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
        time.sleep(gap)
    for thread in threads:
        thread.join(30)
    return answers


def test_a_waiting_shard_blocks_on_its_event_without_waking(monkeypatch):
    calls = []
    wait = ShardSession.wait

    def counted(self, shard, timeout=None):
        calls.append(timeout)
        return wait(self, shard, timeout)

    monkeypatch.setattr(ShardSession, "wait", counted)

    def serve(shards):
        time.sleep(0.4)
        shards.resume = Resume.CONTINUE

    assert _serve_in_threads(2, serve) == [Resume.CONTINUE] * 2
    assert calls == [None, None], "one untimed wait per shard, no 50 ms wake-ups"


def test_a_shard_hitting_again_waits_for_the_session_to_close_without_polling(monkeypatch):
    waits = []
    wait_resumed = ShardSession.wait_resumed

    def counted(self, timeout=None):
        waits.append(timeout)
        return wait_resumed(self, timeout)

    monkeypatch.setattr(ShardSession, "wait_resumed", counted)
    served = []

    def serve(shards):
        served.append(shards)
        if len(served) == 1:
            shards.run("c 0")  # shard 0 runs on and hits the breakpoint again
            again = threading.Thread(
                target=lambda: shard_serving.serve_hit(_device_hit(0), "run", (2,), serve)
            )
            again.start()
            time.sleep(0.4)
        shards.resume = Resume.CONTINUE

    _serve_in_threads(2, serve)
    deadline = time.monotonic() + 10
    while len(served) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(served) == 2 and served[0] is not served[1]
    assert waits == [None], "the second hit waits once for the answer, then for the close"


def test_shards_that_keep_arriving_are_all_gathered_however_long_it_takes(monkeypatch):
    monkeypatch.setattr(shard_serving, "QUIET_SECONDS", 1.0)  # 20 times the gap: no flakes
    count, seen = 48, []

    def serve(shards):
        seen.append(shards.arrived)
        shards.resume = Resume.CONTINUE

    _serve_in_threads(count, serve, gap=0.05)  # 2.4 s of arrivals, 50 ms apart
    assert seen == [count]

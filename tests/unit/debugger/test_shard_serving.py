"""Gathering the shards of a real 8-device shard_map into one session, served once."""

from __future__ import annotations

import threading

import jax
import numpy as np
import pytest
from jax import numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger import shard_serving
from jaxdbg_widgets.debugger.session import Resume, Session
from jaxdbg_widgets.debugger.shard_session import ShardSession


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
        session = Session(frames, thread_id=thread_id, device=kwargs.get("device"))
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


def _program():
    mesh = jax.make_mesh((8,), ("i",))
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
    assert compared[0] == "bool(y[0] == 20) in 8 shards:"
    assert compared[6] == "!   5  i=5  True"
    assert compared[-1] == "1 of 8 shards differ from the most common value (marked !)"
    assert backend.outputs[3] == "14.0"
    assert backend.outputs[4] == "Continuing i=3; 7 still waiting."
    assert sorted(backend.answers) == [f"i={i}" for i in range(8)]
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

"""Breakpoints: the backend contract, frames, batches, predicates, threads and quitting."""

from __future__ import annotations

import threading
import time

import jax
import numpy as np
import pytest
from jax import numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit, original_exception
from jaxdbg_widgets.core.frames import Frame
from jaxdbg_widgets.core.shard_place import ShardPlace

# jax.set_mesh is JAX 0.7.1+; 0.7.0 has jax.sharding.use_mesh
set_mesh = getattr(jax, "set_mesh", None) or jax.sharding.use_mesh


class Recorder:
    """A debugger backend that records each session and continues."""

    def __init__(self):
        self.sessions = []

    def __call__(self, frames, thread_id, **kwargs):
        self.sessions.append((frames, thread_id, kwargs))


@pytest.fixture
def recorder():
    backend = Recorder()
    undo = jax_registry.register("test-recorder", backend, -100)
    yield backend
    undo()


def _run(f, *args):
    out = f(*args)
    jdw.effects_barrier()
    return out


def _stopped_at(x):
    y = x * 2
    jdw.breakpoint(backend="test-recorder")
    return y


def test_breakpoint_calls_the_backend_with_user_frames_innermost_first(recorder):
    _run(jax.jit(_stopped_at), jnp.arange(3.0))
    ((frames, thread_id, kwargs),) = recorder.sessions
    assert thread_id is None
    assert kwargs == {}
    inner = frames[0]
    assert isinstance(inner, Frame)
    assert inner.function == "_stopped_at"
    assert inner.filename == __file__
    assert not inner.internal
    np.testing.assert_array_equal(inner.locals["x"], np.arange(3.0))
    np.testing.assert_array_equal(inner.locals["y"], np.arange(3.0) * 2)
    assert inner.globals is globals()
    assert inner.source[inner.offset].strip() == 'jdw.breakpoint(backend="test-recorder")'
    assert [frame.function for frame in frames[1:3]] == [
        "_run",
        "test_breakpoint_calls_the_backend_with_user_frames_innermost_first",
    ]
    assert not any(frame.internal for frame in frames)


def test_frames_match_jax_debug_breakpoint(recorder):
    def f(x):
        z = {"double": x * 2, "label": "static"}
        jax.debug.breakpoint(backend="test-recorder", num_frames=1)
        jdw.breakpoint(backend="test-recorder", num_frames=1)
        return z["double"]

    _run(jax.jit(f), jnp.float32(4.0))
    (theirs, _, _), (ours, _, _) = recorder.sessions
    (theirs,), (ours,) = theirs, ours
    assert ours.filename == theirs.filename
    assert ours.lineno == theirs.lineno + 1
    assert ours.source == theirs.source
    assert ours.offset == theirs.offset + 1
    assert set(ours.locals) == set(theirs.locals)
    np.testing.assert_array_equal(ours.locals["x"], theirs.locals["x"])
    np.testing.assert_array_equal(ours.locals["z"]["double"], theirs.locals["z"]["double"])
    assert ours.locals["z"]["label"] == theirs.locals["z"]["label"] == "static"


def test_filter_frames_false_keeps_internal_frames_flagged(recorder):
    def f(x):
        jdw.breakpoint(backend="test-recorder", filter_frames=False)
        return x

    _run(jax.jit(f), 1.0)
    ((frames, _, _),) = recorder.sessions
    internal = [frame for frame in frames if frame.internal]
    assert internal, "jit tracing puts JAX frames on the stack"
    assert any("/jax/" in frame.filename for frame in internal)
    assert frames[0].function == "f" and not frames[0].internal


def test_num_frames_limits_user_frames(recorder):
    _run(jax.jit(lambda x: jdw.breakpoint(backend="test-recorder", num_frames=1)), 1.0)
    ((frames, _, _),) = recorder.sessions
    assert len(frames) == 1


class _Counted:
    """A pytree node that counts how often JAX flattens it."""

    flattened = 0


jax.tree_util.register_pytree_node(
    _Counted,
    lambda node: (setattr(_Counted, "flattened", _Counted.flattened + 1), ((), None))[1],
    lambda aux, children: _Counted(),
)


class _Cell:
    """A notebook-like cell: code run at module level of its own namespace."""

    def __init__(self, **names):
        self.namespace = {"jax": jax, "jdw": jdw, **names}

    def run(self, source):
        exec(compile(source, "<cell>", "exec"), self.namespace)


def test_namespace_values_are_not_traversed(recorder):
    cell = _Cell(big=list(range(100_000)), counted=_Counted())
    before = _Counted.flattened
    cell.run(
        "def f(x):\n    jdw.breakpoint(backend='test-recorder')\n    return x\njax.jit(f)(1.0)\n"
    )
    jdw.effects_barrier()
    assert _Counted.flattened == before
    ((frames, _, _),) = recorder.sessions
    module_frame = next(frame for frame in frames if frame.function == "<module>")
    assert module_frame.locals is cell.namespace
    assert module_frame.globals is cell.namespace


def test_jax_debug_breakpoint_traverses_the_namespace(recorder):
    cell = _Cell(counted=_Counted())
    before = _Counted.flattened
    cell.run(
        "def f(x):\n    jax.debug.breakpoint(backend='test-recorder')\n    return x\njax.jit(f)(1.0)\n"
    )
    jax.effects_barrier()
    assert _Counted.flattened > before


def test_large_containers_in_function_locals_are_kept_whole(recorder):
    def f(x):
        big = [x] * 2000
        small = [x, "label"]
        jdw.breakpoint(backend="test-recorder")
        return big[0] + small[0]

    _run(jax.jit(f), 1.0)
    ((frames, _, _),) = recorder.sessions
    assert float(frames[0].locals["small"][0]) == 1.0
    assert isinstance(frames[0].locals["big"][0], jax.core.Tracer)


def test_breakpoint_under_vmap_opens_one_session_per_batch(recorder):
    _run(jax.vmap(_stopped_at), jnp.arange(4.0))
    ((frames, _, kwargs),) = recorder.sessions
    assert kwargs == {"batch_size": 4}
    assert set(frames[0].batched) == {"x", "y"}
    np.testing.assert_array_equal(frames[0].locals["y"], np.arange(4.0) * 2)


def test_nested_vmap_flattens_the_batch(recorder):
    _run(jax.vmap(jax.vmap(_stopped_at)), jnp.arange(6.0).reshape(2, 3))
    ((frames, _, kwargs),) = recorder.sessions
    assert kwargs == {"batch_size": 6}
    np.testing.assert_array_equal(frames[0].locals["x"], np.arange(6.0))


def test_breakpoint_sequential_opens_one_session_per_element(recorder):
    def f(x):
        jdw.breakpoint(backend="test-recorder", vmap_method="sequential")
        return x

    _run(jax.vmap(f), jnp.arange(3.0))
    assert [float(frames[0].locals["x"]) for frames, _, _ in recorder.sessions] == [0, 1, 2]
    assert all(kwargs == {} for _, _, kwargs in recorder.sessions)


def _check_positive(x):
    jdw.breakpoint_if(x > 1, backend="test-recorder")
    return x


def test_breakpoint_if_enters_only_where_the_predicate_holds(recorder):
    f = jax.jit(_check_positive)
    _run(f, 0.0)
    assert recorder.sessions == []
    _run(f, 2.0)
    assert len(recorder.sessions) == 1


def test_breakpoint_if_is_checked_on_device_before_any_host_call():
    text = jax.jit(_check_positive).lower(1.0).as_text()
    assert text.index("stablehlo.case") < text.index("python_cpu_callback")


def test_breakpoint_if_under_vmap_selects_elements(recorder):
    _run(jax.jit(jax.vmap(_check_positive)), jnp.array([3.0, 0.0, 5.0, 1.0]))
    ((frames, _, kwargs),) = recorder.sessions
    assert kwargs == {"batch_size": 2, "batch_indices": (0, 2), "batch_total": 4}
    np.testing.assert_array_equal(frames[0].locals["x"], [3.0, 5.0])
    _run(jax.jit(jax.vmap(_check_positive)), jnp.zeros(4))
    assert len(recorder.sessions) == 1


def test_breakpoint_if_rejects_a_non_boolean_predicate():
    with pytest.raises(TypeError, match="boolean scalar"):
        jdw.breakpoint_if(jnp.arange(3) > 1)


def test_breakpoint_if_nonfinite(recorder):
    def f(x):
        y = jnp.log(x)
        jdw.breakpoint_if_nonfinite(y, backend="test-recorder")
        return y

    _run(jax.jit(f), jnp.array([1.0, 2.0]))
    assert recorder.sessions == []
    _run(jax.jit(f), jnp.array([1.0, -1.0]))
    ((frames, _, _),) = recorder.sessions
    assert frames[0].function == "f"
    assert np.isnan(frames[0].locals["y"][1])


def test_backend_is_looked_up_when_the_breakpoint_is_hit():
    compiled = jax.jit(lambda x: jdw.breakpoint(backend="registered-late")).lower(1.0).compile()
    late = Recorder()
    undo = jax_registry.register("registered-late", late, -100)
    try:
        compiled(1.0)
        jdw.effects_barrier()
    finally:
        undo()
    assert len(late.sessions) == 1


def test_backends_without_batch_keywords_are_not_passed_them():
    seen = []

    def strict_backend(frames, thread_id, colour="red"):
        seen.append(colour)

    undo = jax_registry.register("strict", strict_backend, -100)
    try:

        def f(x):
            return jdw.breakpoint(backend="strict", colour="blue")

        _run(jax.vmap(f), jnp.arange(2.0))
    finally:
        undo()
    assert seen == ["blue"]


def test_token_form_returns_the_token(recorder):
    def f(x):
        y = x + 1
        return jdw.breakpoint(backend="test-recorder", token=y) * 2

    assert float(_run(jax.jit(f), 1.0)) == 4.0
    ((frames, _, _),) = recorder.sessions
    assert float(frames[0].locals["y"]) == 2.0


def _sharded():
    mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
    return mesh, jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("i")))


def test_worker_thread_breakpoints_pass_their_thread_id(recorder):
    _, x = _sharded()
    _run(jax.jit(_stopped_at), x)
    ((_, thread_id, _),) = recorder.sessions
    assert isinstance(thread_id, int)
    assert thread_id != threading.main_thread().ident


def test_breakpoints_from_several_threads_are_served_one_after_another():
    mesh, x = _sharded()
    events, threads = [], set()

    def slow_backend(frames, thread_id, **kwargs):
        threads.add(thread_id)
        events.append("enter")
        time.sleep(0.02)
        events.append("exit")

    undo = jax_registry.register("slow", slow_backend, -100)
    try:

        def per_device(block):
            return (jdw.breakpoint(backend="slow"), block)[1]

        f = jax.shard_map(per_device, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
        _run(jax.jit(f), x)
    finally:
        undo()
    assert events == ["enter", "exit"] * 8
    assert None not in threads


def _shard_mapped(breakpoint_fn, mesh):
    def per_device(block):
        breakpoint_fn(block)
        return block

    return jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=P("i"), out_specs=P("i")))


def _devices(recorder):
    return sorted(kwargs["device"] for _, _, kwargs in recorder.sessions)


def _labels(mesh, positions):
    return sorted(f"CPU {mesh.devices.flat[i].id} (i={i})" for i in positions)


def test_shard_map_breakpoints_name_their_device_without_a_mesh_context(recorder):
    """The mesh passed only to shard_map(mesh=...) names the devices: the one compiled for."""
    mesh, x = _sharded()
    _run(_shard_mapped(lambda block: jdw.breakpoint(backend="test-recorder"), mesh), x)
    assert len(recorder.sessions) == 8
    assert _devices(recorder) == _labels(mesh, range(8))


def test_shard_map_breakpoints_name_their_device_when_the_mesh_is_set(recorder):
    mesh, x = _sharded()
    with set_mesh(mesh):
        _run(_shard_mapped(lambda block: jdw.breakpoint(backend="test-recorder"), mesh), x)
    expected = [f"CPU {d.id} (i={i})" for i, d in enumerate(mesh.devices.flat)]
    assert _devices(recorder) == sorted(expected)


def test_shard_map_breakpoints_pass_their_place_as_data(recorder):
    mesh, x = _sharded()
    with set_mesh(mesh):
        _run(_shard_mapped(lambda block: jdw.breakpoint(backend="test-recorder"), mesh), x)
    places = sorted((kwargs["shard"] for _, _, kwargs in recorder.sessions), key=lambda p: p.order)
    assert places == [
        ShardPlace((("i", i),), f"CPU {d.id}") for i, d in enumerate(mesh.devices.flat)
    ]
    assert all(kwargs["device"] == kwargs["shard"].label for _, _, kwargs in recorder.sessions)


def test_breakpoint_if_under_shard_map_names_the_shards_that_hit(recorder):
    mesh, x = _sharded()

    def check(block):
        jdw.breakpoint_if(block[0] >= 6.0, backend="test-recorder")

    _run(_shard_mapped(check, mesh), x)
    assert _devices(recorder) == _labels(mesh, [6, 7])


def test_batched_breakpoint_under_shard_map_keeps_batch_and_device(recorder):
    mesh, _ = _sharded()
    x = jnp.arange(16.0)

    def per_row(block):
        jax.vmap(lambda row: jdw.breakpoint(backend="test-recorder"))(block)

    _run(_shard_mapped(per_row, mesh), x)
    assert _devices(recorder) == _labels(mesh, range(8))
    assert all(kwargs["batch_size"] == 2 for _, _, kwargs in recorder.sessions)
    assert sorted(float(f[0].locals["row"][0]) for f, _, _ in recorder.sessions) == list(
        range(0, 16, 2)
    )


def test_breakpoints_outside_shard_map_pass_no_device(recorder):
    _, x = _sharded()
    _run(jax.jit(_stopped_at), x)
    _run(_stopped_at, jnp.arange(2.0))
    assert [kwargs for _, _, kwargs in recorder.sessions] == [{}, {}]


def test_backends_without_a_device_keyword_are_not_passed_it():
    mesh, x = _sharded()
    seen = []

    def strict_backend(frames, thread_id):
        seen.append(frames[0].function)

    undo = jax_registry.register("strict", strict_backend, -100)
    try:
        _run(
            _shard_mapped(lambda block: jdw.breakpoint_if_nonfinite(block, backend="strict"), mesh),
            x / 0.0,
        )
    finally:
        undo()
    assert len(seen) == 8


def _quitting_backend(frames, thread_id, **kwargs):
    raise DebuggerQuit()


def _exiting_backend(frames, thread_id, **kwargs):
    raise SystemExit(0)


@pytest.mark.parametrize("backend", [_quitting_backend, _exiting_backend], ids=["quit", "exit"])
def test_quitting_on_the_main_thread_stops_the_computation_naming_the_quit(capfd, backend):
    undo = jax_registry.register("quitter", backend, -100)
    try:
        f = jax.jit(lambda x: (jdw.breakpoint(backend="quitter"), jdw.print("after {}", x))[1])
        with pytest.raises(Exception) as info:
            _run(f, 1.0)
    finally:
        undo()
    assert "DebuggerQuit: the jaxdbg_widgets debugger was quit" in str(info.value)
    assert isinstance(original_exception(info.value), DebuggerQuit)
    jdw.effects_barrier()
    assert "after" not in capfd.readouterr().out


def test_quitting_on_a_worker_thread_raises_debugger_quit_from_the_barrier():
    _, x = _sharded()
    undo = jax_registry.register("quitter", _quitting_backend, -100)
    try:
        jax.jit(lambda v: jdw.breakpoint(backend="quitter"))(x)
        with pytest.raises(DebuggerQuit, match="debugger was quit"):
            jdw.effects_barrier()
    finally:
        undo()
    jdw.effects_barrier()

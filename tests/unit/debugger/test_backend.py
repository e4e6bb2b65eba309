"""The registry backend driven by fake front ends: a scripted inbox stands in for the browser."""

from __future__ import annotations

import gc
import queue
import threading
import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import breakpoints, jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit, original_exception
from jaxdbg_widgets.debugger.serve import backend, headless, post_mortem, scripts, stops
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.widget import ended

# jax.set_mesh is JAX 0.7.1+; 0.7.0 has jax.sharding.use_mesh
set_mesh = getattr(jax, "set_mesh", None) or jax.sharding.use_mesh

TEST_BACKEND = "jaxdbg-unit-test"


class FakeInbox:
    """Answers like a browser: each ``get`` returns the next message, then times out."""

    def __init__(self, widget: Any, messages: queue.Queue, seen: list[dict]) -> None:
        self.widget = widget
        self.messages = messages
        self.seen = seen
        self.closed = False

    def get(self, timeout: float) -> Any | None:
        self.seen.append(dict(self.widget.view))
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self) -> None:
        self.messages.put(None)

    def close(self) -> None:
        self.closed = True


class FakeFrontEnd:
    def __init__(self, tier: Tier, messages=(), lines=(), read_line=None) -> None:
        self.tier = tier
        self.messages: queue.Queue = queue.Queue()
        self.send(*messages)
        self.lines = list(lines)
        self.read_line = read_line or (lambda prompt: self.lines.pop(0) if self.lines else None)
        self.views: list[dict] = []
        self.inboxes: list[FakeInbox] = []
        self.displayed: list[Any] = []
        self.updated: list[Any] = []

    def send(self, *messages: Any) -> None:
        for message in messages:
            self.messages.put(message)

    def __call__(self) -> FrontEnd:
        return FrontEnd(
            detect_tier=lambda: self.tier,
            open_inbox=self._open,
            read_line=self.read_line,
            display=self._display,
        )

    def _open(self, widget):
        inbox = FakeInbox(widget, self.messages, self.views)
        self.inboxes.append(inbox)
        return inbox

    def _display(self, widget):
        self.displayed.append(widget)
        return self.updated.append


@pytest.fixture
def use_front_end():
    undo = []

    def install(front_end: FakeFrontEnd):
        undo.append(jax_registry.register(TEST_BACKEND, backend.make_backend(front_end), -100))
        return front_end

    backend.new_run()
    yield install
    for fn in undo:
        fn()
    backend.new_run()
    headless.set_policy(None)
    scripts.clear_queue()


def _program(x):
    y = jnp.sin(x) * 2
    jax.debug.breakpoint(backend=TEST_BACKEND)
    return (y + 1).sum()


def _helper_with_breakpoint(v):
    jdw.breakpoint(backend=TEST_BACKEND)
    return v * 2


def _run(x=None):
    return float(jax.jit(_program)(jnp.arange(4.0) if x is None else x))


def test_widget_tier_clicks_evaluate_and_continue(use_front_end):
    fe = use_front_end(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[
                {"type": "command", "line": "p y.shape"},
                {"type": "frame", "index": 1},
                {"type": "frame", "index": 0},
                {"type": "command", "line": "c"},
            ],
        )
    )
    assert _run() == pytest.approx(float((jnp.sin(jnp.arange(4.0)) * 2 + 1).sum()))
    widget = fe.displayed[0]
    assert widget.view["status"] == "continue"
    assert widget.view["transcript"][0] == {
        "command": "p y.shape",
        "output": "(4,)",
        "error": False,
    }
    assert [v["selected"] for v in fe.views[:4]] == [0, 0, 1, 0]
    assert fe.inboxes[0].closed
    frozen = fe.updated[0]._repr_mimebundle_()
    assert set(frozen) == {"text/plain", "text/html"}
    assert "p y.shape" in frozen["text/html"] and "continued" in frozen["text/html"]
    assert widget.comm is not None and widget in ended.kept()  # frozen, for a reloaded page


def test_quit_raises_debugger_quit_through_jax(use_front_end):
    use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=[{"type": "command", "line": "q"}]))
    with pytest.raises(Exception) as info:
        _run()
    original = (
        info.value if isinstance(info.value, DebuggerQuit) else original_exception(info.value)
    )
    assert isinstance(original, DebuggerQuit)
    assert "_program" in str(original)


def test_continue_all_skips_the_rest_of_the_run(use_front_end):
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=[{"type": "command", "line": "ca"}]))
    _run()
    _run(jnp.ones(4))
    jax.effects_barrier()
    assert len(fe.displayed) == 1
    backend.new_run()
    fe.send({"type": "command", "line": "c"})
    _run()
    assert len(fe.displayed) == 2
    assert fe.displayed[1].view["header"]["stop"] == "breakpoint #1"


def test_a_post_mortem_names_itself_in_the_header(use_front_end):
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=[{"type": "command", "line": "c"}]))
    serve = backend.make_backend(fe)
    try:
        _ = 1 / 0
    except ZeroDivisionError as error:
        assert post_mortem.debug(error, error.__traceback__, serve, lambda: True)
    assert fe.displayed[0].view["header"]["stop"] == "post-mortem"


def test_nothing_keeps_the_frames_alive_after_continue(use_front_end):
    class Payload:
        pass

    refs = []

    def program(x):
        payload = Payload()
        refs.append(weakref.ref(payload))
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return x + 1

    fe = use_front_end(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[{"type": "command", "line": "p payload"}, {"type": "command", "line": "c"}],
        )
    )
    jax.jit(program)(jnp.ones(3)).block_until_ready()
    jax.effects_barrier()
    assert "Payload object" in fe.displayed[0].view["transcript"][0]["output"]
    jax.clear_caches()
    gc.collect()
    assert refs and refs[0]() is None


def test_stdin_tier_reads_typed_commands(use_front_end, capsys):
    fe = use_front_end(FakeFrontEnd(Tier.STDIN, lines=["p y.dtype", "w", "c"]))
    _run()
    out = capsys.readouterr().out
    assert "Breakpoint 1 at _program" in out
    assert "float32" in out
    assert "Traceback:" in out
    assert fe.displayed[0].view["status"] == "continue"


def test_stdin_without_answer_falls_back_to_the_headless_policy(use_front_end, capsys):
    use_front_end(FakeFrontEnd(Tier.TERMINAL, lines=[]))
    _run()
    assert "headless policy 'continue'" in capsys.readouterr().out


def test_headless_continue_prints_a_notice(use_front_end, capsys):
    fe = use_front_end(FakeFrontEnd(Tier.HEADLESS))
    headless.set_policy(headless.HeadlessPolicy.CONTINUE)
    _run()
    out = capsys.readouterr().out
    assert "jaxdbg: breakpoint at _program" in out and "continued" in out
    assert fe.displayed == []


def test_headless_raise_stops_the_computation(use_front_end):
    use_front_end(FakeFrontEnd(Tier.HEADLESS))
    headless.set_policy(headless.HeadlessPolicy.RAISE)
    with pytest.raises(Exception) as info:
        _run()
    original = original_exception(info.value)
    assert isinstance(original, DebuggerQuit)
    assert "headless policy 'raise'" in str(original)


def test_headless_script_policy_uses_the_environment(use_front_end, capsys, monkeypatch):
    use_front_end(FakeFrontEnd(Tier.HEADLESS))
    headless.set_policy(headless.HeadlessPolicy.SCRIPT)
    monkeypatch.setenv(headless.SCRIPT_ENV_VAR, "p y.shape; c")
    _run()
    out = capsys.readouterr().out
    assert "(jdb) p y.shape\n(4,)\n(jdb) c\nContinuing." in out


def test_breakpoint_if_under_vmap_names_and_selects_the_real_elements(use_front_end, capsys):
    """Elements 2, 3 and 4 of 5 stop: the banner and b N speak of those, not of 0..2 of 3."""
    use_front_end(FakeFrontEnd(Tier.SUBSHELL))

    def program(v):
        jdw.breakpoint_if(v[0] >= 4, backend=TEST_BACKEND)
        return v * 2

    with scripts.script(["b", "b 3", "p float(v[0])", "b 0", "c"]):
        jax.jit(jax.vmap(program))(jnp.arange(10.0).reshape(5, 2)).block_until_ready()
        jax.effects_barrier()
    out = capsys.readouterr().out
    assert ", batch index 2 of 5 (stopped at elements 2, 3, 4)\n" in out
    assert "(jdb) b\nbatch index 2 of 5 (stopped at elements 2, 3, 4)\n" in out
    assert "(jdb) b 3\nbatch index 3 of 5 (stopped at elements 2, 3, 4)\n" in out
    assert "(jdb) p float(v[0])\n6.0\n" in out
    assert "(jdb) b 0\n*** ValueError: element 0 did not stop here" in out


def test_script_answers_across_breakpoints_and_prints_transcripts(use_front_end, capsys):
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL))
    with scripts.script(["p y.shape", "c", "u", "p x.dtype", "c"]):
        _run()
        _run(jnp.zeros(4))
        _run(jnp.ones(4))
    out = capsys.readouterr().out
    assert out.count("Breakpoint") == 3
    assert "(jdb) p y.shape\n(4,)\n(jdb) c\nContinuing." in out
    assert "(jdb) u\n> " in out
    assert "(script has no more commands: continuing)" in out
    assert fe.displayed == []


def test_worker_thread_breakpoints_on_8_devices_are_served_one_by_one(use_front_end):
    assert jax.device_count() == 8
    mesh = jax.make_mesh((8,), ("i",))
    sharding = jax.NamedSharding(mesh, jax.P("i"))
    x = jax.device_put(jnp.arange(16.0), sharding)

    def per_shard(block):
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return block * 2

    program = jax.jit(
        jax.shard_map(per_shard, mesh=mesh, in_specs=jax.P("i"), out_specs=jax.P("i"))
    )
    messages = [
        {"type": "command", "line": "p block.tolist()"},
        {"type": "command", "line": "c"},
    ] * 8
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=messages))
    result = program(x)
    np.testing.assert_allclose(np.asarray(result), np.arange(16.0) * 2)
    jax.effects_barrier()
    assert len(fe.displayed) == 8
    shown = sorted(w.view["transcript"][0]["output"] for w in fe.displayed)
    assert shown == sorted(str([2.0 * i, 2.0 * i + 1]) for i in range(8))
    assert [w.view["header"]["stop"] for w in fe.displayed] == [
        f"breakpoint #{n}" for n in range(1, 9)
    ]
    assert all(w.view["status"] == Resume.CONTINUE.value for w in fe.displayed)


def _shard_map_breakpoint_program():
    mesh = jax.make_mesh((8,), ("i",))
    x = jax.device_put(jnp.arange(16.0), jax.NamedSharding(mesh, jax.P("i")))

    def per_shard(block):
        jdw.breakpoint(backend=TEST_BACKEND)
        return block

    f = jax.shard_map(per_shard, mesh=mesh, in_specs=jax.P("i"), out_specs=jax.P("i"))
    return mesh, jax.jit(f), x


def test_shard_map_breakpoints_gather_in_one_widget_naming_each_device(use_front_end):
    mesh, program, x = _shard_map_breakpoint_program()
    messages = [{"type": "device", "index": 6}, {"type": "command", "line": "c"}]
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=messages))
    with set_mesh(mesh):
        program(x)
    jax.effects_barrier()
    [widget] = fe.displayed
    devices = [d["label"] for d in widget.view["shards"]["devices"]]
    assert devices == [f"CPU {d.id} (i={i})" for i, d in enumerate(mesh.devices.flat)]
    assert widget.view["status"] == "continue"
    assert widget.view["header"]["thread"].endswith(f"CPU {mesh.devices.flat[6].id} (i=6)")


def test_scripted_shard_map_breakpoints_name_the_shard_in_the_banner(use_front_end, capsys):
    mesh, program, x = _shard_map_breakpoint_program()
    use_front_end(FakeFrontEnd(Tier.SUBSHELL))
    with scripts.script(["dev", "dev 3", "c"]):
        program(x)
        jax.effects_barrier()
    out = capsys.readouterr().out
    banners = [line for line in out.splitlines() if "Breakpoint" in line]
    first = f"CPU {mesh.devices.flat[0].id} (i=0)"
    assert len(banners) == 1 and banners[0].endswith(f", 8 shards, {first} selected")
    assert "8 of 8 shards gathered, 8 waiting" in out
    assert f"(jdb) dev 3\nCPU {mesh.devices.flat[3].id}, i=3, shard 3 (waiting)" in out


def test_a_script_keeping_records_keeps_the_frozen_record_with_the_compare_pictures(
    use_front_end, capsys
):
    mesh, program, x = _shard_map_breakpoint_program()
    use_front_end(FakeFrontEnd(Tier.SUBSHELL))
    with scripts.script(["compare block", "c"], keep_records=True) as answered:
        program(x)
        jax.effects_barrier()
    [record] = answered.records
    bundle = record._repr_mimebundle_()
    assert bundle["text/plain"].endswith(": continue>")
    html = bundle["text/html"]
    assert "one scale: min 0 … max 15" in html and html.count("data:image/png;base64,") == 8
    first = f"CPU {mesh.devices.flat[0].id} (i=0)"
    assert f"(8 shards, {first} selected, breakpoint #" in html, "no worker numbers"
    with scripts.script(["c"]) as plain:
        program(x)
        jax.effects_barrier()
    assert plain.records == []
    capsys.readouterr()


def test_interrupt_while_waiting_ends_with_keyboard_interrupt(use_front_end):
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL))

    def raising_get(self, timeout):
        raise KeyboardInterrupt

    FakeInbox.get, original_get = raising_get, FakeInbox.get
    try:
        with pytest.raises(BaseException) as info:
            _run()
    finally:
        FakeInbox.get = original_get
    recovered = (
        original_exception(info.value)
        if not isinstance(info.value, KeyboardInterrupt)
        else info.value
    )
    assert isinstance(recovered, KeyboardInterrupt)
    assert fe.displayed[0].view["status"] == "interrupted"
    assert fe.inboxes[0].closed


def test_install_registers_above_cli_and_undo_removes():
    before = jax_registry.snapshot()
    undo = backend.install(None)
    assert jax_registry.default_backend() == "jaxdbg"
    assert dict(jax_registry.backends())["jaxdbg"] > dict(jax_registry.backends())["cli"]
    undo()
    assert jax_registry.snapshot() == before


def test_core_breakpoint_under_vmap_enters_once_with_a_batch_selector(use_front_end):
    def program(x):
        y = x * 10
        jdw.breakpoint(backend=TEST_BACKEND)
        return y

    fe = use_front_end(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[
                {"type": "command", "line": "p y.tolist()"},
                {"type": "batch", "index": 2},
                {"type": "command", "line": "p y.tolist()"},
                {"type": "command", "line": "c"},
            ],
        )
    )
    out = jax.jit(jax.vmap(program))(jnp.arange(6.0).reshape(3, 2))
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(out), np.arange(6.0).reshape(3, 2) * 10)
    assert len(fe.displayed) == 1
    view = fe.displayed[0].view
    assert view["header"]["batch"] == {"index": 2, "size": 3, "element": 2}
    assert [e["output"] for e in view["transcript"][:2]] == ["[0.0, 10.0]", "[40.0, 50.0]"]


def test_jax_breakpoint_under_vmap_enters_per_element_and_continue_all_skips(use_front_end):
    def program(x):
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return x + 1

    fe = use_front_end(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[{"type": "command", "line": "c"}, {"type": "command", "line": "ca"}],
        )
    )
    jax.jit(jax.vmap(program))(jnp.arange(4.0)).block_until_ready()
    jax.effects_barrier()
    assert [w.view["status"] for w in fe.displayed] == ["continue", "continue_all"]


def test_breakpoint_inside_grad_sees_primal_values(use_front_end, capsys):
    def program(x):
        y = jnp.sin(x)
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return (y * y).sum()

    use_front_end(FakeFrontEnd(Tier.HEADLESS))
    with scripts.script(["p y.shape", "c"]):
        grad = jax.jit(jax.grad(program))(jnp.ones(3))
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(grad), np.sin(2.0) * np.ones(3), rtol=1e-6)
    assert "(jdb) p y.shape\n(3,)" in capsys.readouterr().out


def test_runtime_arrays_are_released_after_continue():
    refs = []
    ours = backend.make_backend(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[{"type": "command", "line": "p y.sum()"}, {"type": "command", "line": "c"}],
        )
    )

    def watching(frames, thread_id, **kwargs):
        refs.append(weakref.ref(frames[0].locals["y"]))
        ours(frames, thread_id, **kwargs)

    undo = jax_registry.register(TEST_BACKEND, watching, -100)
    try:
        backend.new_run()
        _run()
        jax.effects_barrier()
    finally:
        undo()
    gc.collect()
    assert refs and refs[0]() is None


def test_end_of_input_quits_like_the_cli(use_front_end):
    def closed_stdin(prompt):
        raise EOFError

    fe = use_front_end(FakeFrontEnd(Tier.STDIN, read_line=closed_stdin))
    with pytest.raises(Exception) as info:
        _run()
    assert isinstance(original_exception(info.value), DebuggerQuit)
    assert fe.displayed[0].view["status"] == "quit"


def test_a_breakpoint_hit_while_evaluating_continues_instead_of_deadlocking(use_front_end, capsys):
    def program(x):
        jdw.breakpoint(backend=TEST_BACKEND)
        return x + 1

    fe = use_front_end(
        FakeFrontEnd(
            Tier.SUBSHELL,
            messages=[
                {"type": "command", "line": "p _helper_with_breakpoint(3.0)"},
                {"type": "command", "line": "c"},
            ],
        )
    )
    jax.jit(program)(jnp.ones(2)).block_until_ready()
    jax.effects_barrier()
    assert len(fe.displayed) == 1
    assert fe.displayed[0].view["transcript"][0]["output"] == "6.0"
    assert "breakpoint hit while evaluating" in capsys.readouterr().out


def _collective_program():
    mesh = jax.make_mesh((8,), ("i",))
    x = jax.device_put(jnp.arange(16.0), jax.NamedSharding(mesh, jax.P("i")))

    def per_shard(block):
        jdw.breakpoint(backend=TEST_BACKEND)
        return jax.lax.psum(block, "i")

    f = jax.shard_map(per_shard, mesh=mesh, in_specs=jax.P("i"), out_specs=jax.P("i"))
    return jax.jit(f), x


def test_quit_on_a_worker_thread_releases_every_shard_then_raises_once(use_front_end):
    program, x = _collective_program()
    messages = [{"type": "command", "line": "c 0"}, {"type": "command", "line": "q"}]
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL, messages=messages))
    with pytest.raises(DebuggerQuit, match="every shard of the run had reached its end"):
        np.asarray(program(x))
        jax.effects_barrier()
    [widget] = fe.displayed
    assert widget.view["status"] == "quit"
    states = [d["state"] for d in widget.view["shards"]["devices"]]
    assert states == ["continue"] + ["quit"] * 7
    backend.new_run()
    fe.send({"type": "command", "line": "ca"})
    np.testing.assert_allclose(np.asarray(program(x * 0)), np.zeros(16))


def test_interrupt_on_a_worker_thread_releases_the_run(use_front_end):
    program, x = _collective_program()
    fe = use_front_end(FakeFrontEnd(Tier.SUBSHELL))

    def raising_get(self, timeout):
        raise KeyboardInterrupt

    FakeInbox.get, original_get = raising_get, FakeInbox.get
    try:
        result = np.asarray(program(x))
        jax.effects_barrier()
    finally:
        FakeInbox.get = original_get
    np.testing.assert_allclose(result, np.tile([56.0, 64.0], 8))
    assert [w.view["status"] for w in fe.displayed] == ["interrupted"]
    shown = stops.take_shown(KeyboardInterrupt())
    assert isinstance(shown, KeyboardInterrupt) and "interrupted at per_shard" in str(shown)


SCALE = 10.0


@pytest.fixture
def routed_breakpoint():
    undo = breakpoints.route_jax_debug_breakpoint()
    yield
    undo()


def test_routed_jax_breakpoint_sees_module_globals(use_front_end, routed_breakpoint):
    def program(x):
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return x + 1

    messages = [{"type": "command", "line": "p float((x * SCALE).sum()), np.pi > 3"}]
    fe = use_front_end(
        FakeFrontEnd(Tier.SUBSHELL, messages=[*messages, {"type": "command", "line": "c"}])
    )
    jax.jit(program)(jnp.ones(2)).block_until_ready()
    assert fe.displayed[0].view["transcript"][0]["output"] == "(20.0, True)"


def test_routed_jax_breakpoint_enters_once_per_vmap_element_named_by_index(
    use_front_end, routed_breakpoint
):
    def program(v):
        jax.debug.breakpoint(backend=TEST_BACKEND)
        return v * 2

    line = {"type": "command", "line": "p v.tolist()"}
    fe = use_front_end(
        FakeFrontEnd(Tier.SUBSHELL, messages=[line, {"type": "command", "line": "c"}] * 3)
    )
    jax.jit(jax.vmap(program))(jnp.arange(6.0).reshape(3, 2)).block_until_ready()
    jax.effects_barrier()
    views = [w.view for w in fe.displayed]
    assert [v["header"]["thread"] for v in views] == [
        f"main thread, vmap element {i}" for i in range(3)
    ]
    assert [v["transcript"][0]["output"] for v in views] == [
        "[0.0, 1.0]",
        "[2.0, 3.0]",
        "[4.0, 5.0]",
    ]


@pytest.mark.skipif(
    jax.config.values.get("jax_pmap_shmap_merge") is False,
    reason="this JAX's pmap is not a shard_map, so breakpoints under it have no mesh position",
)
def test_pmap_breakpoints_name_their_index_not_jax_internal_axis():
    seen = []
    undo = jax_registry.register("pmap-labels", lambda frames, tid, **kw: seen.append(kw), -100)
    try:

        def per_device(x):
            jdw.breakpoint(backend="pmap-labels")
            return x

        jax.pmap(per_device)(jnp.arange(8.0))
        jax.effects_barrier()
    finally:
        undo()
    labels = sorted(kw["device"] for kw in seen)
    assert sorted(label.split(" (", 1)[1] for label in labels) == [
        f"pmap index {i})" for i in range(8)
    ]
    assert all(label.startswith("CPU ") for label in labels), "each names its device"


def test_eight_threads_each_answer_their_breakpoints_with_their_own_script(use_front_end, capsys):
    use_front_end(FakeFrontEnd(Tier.SUBSHELL))

    def program(x):
        jdw.breakpoint(backend=TEST_BACKEND)
        return x + 1

    compiled = jax.jit(program)
    start = threading.Barrier(8)
    errors = []

    def work(n: int) -> None:
        try:
            with scripts.script([f"p int(x) == {n}", "c"] * 3):
                start.wait()
                for _ in range(3):
                    compiled(jnp.int32(n)).block_until_ready()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    out = capsys.readouterr().out
    assert out.count("(jdb) c\nContinuing.") == 24
    assert out.count("\nTrue\n") == 24 and "False" not in out

"""The recorder against real JAX: which function, where it was called, and why it was traced again."""

from __future__ import annotations

import functools
import logging
import sys

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.compiles import capture, recorder, watch_compiles
from jaxdbg_widgets.compiles.model import NO_DIFFERENCE


def _here() -> int:
    return sys._getframe(1).f_lineno


def _causes(report, name):
    return [p.cause_text() for p in report.programs if p.function and p.function.name == name]


def test_a_new_batch_shape_is_named_with_its_path_and_the_calling_line():
    @jax.jit
    def step(batch, params):
        return batch @ params["w"]

    params = {"w": jnp.ones((3, 2))}
    with watch_compiles() as report:
        first = _here() + 1
        step(jnp.ones((32, 3)), params)
        step(jnp.ones((32, 3)), params)
        second = _here() + 1
        step(jnp.ones((7, 3)), params)
    programs = [p for p in report.programs if p.function and p.function.name.endswith("step")]
    assert [p.call_site.lineno for p in programs] == [first, second]
    assert programs[0].first and programs[0].call_site.label == f"test_recorder.py:{first}"
    assert programs[1].cause_text() == "batch: f32[32,3] → f32[7,3]"
    assert [p.stages for p in programs] == [{"trace": 1, "lower": 1, "compile": 1}] * 2
    assert all(p.seconds["compile"] > 0 for p in programs)


def test_weak_types_pytree_keys_and_static_arguments():
    f = jax.jit(lambda x, tree, mode: x * tree["a"], static_argnames="mode")
    with watch_compiles() as report:
        f(2.0, {"a": jnp.ones(3)}, mode="train")
        f(jnp.float32(2.0), {"a": jnp.ones(3)}, mode="train")
        f(jnp.float32(2.0), {"a": jnp.ones(3), "b": None}, mode="train")
        f(jnp.float32(2.0), {"a": jnp.ones(3), "b": None}, mode="eval")
    causes = _causes(report, "test_weak_types_pytree_keys_and_static_arguments.<locals>.<lambda>")
    assert causes[0] == "first call"
    assert causes[1].startswith("x: f32[] (weak: a Python scalar) → f32[]")
    assert causes[2] == "tree['b']: absent → None (a pytree key appeared)"
    assert causes[3] == "mode: 'train' → 'eval'"


class Config:
    """A static argument without ``__eq__``/``__hash__``: JAX hashes it by identity."""


def test_a_static_object_made_each_call_is_named_as_such():
    f = jax.jit(lambda x, cfg: x + 1, static_argnums=1)
    with watch_compiles() as report:
        for _ in range(2):
            f(jnp.ones(2), Config())
    [cause] = [p.cause_text() for p in report.recompiles() if not p.function.jax_own]
    assert cause.startswith("cfg: a Config object → a new Config object (hashed by identity")


def test_a_jit_built_in_a_loop_and_a_partial_made_each_call():
    def scale(x, k):
        return x * k

    with watch_compiles() as report:
        for _ in range(2):
            line = _here() + 1
            jax.jit(lambda x: x + 1)(jnp.ones(2))
        for k in (2, 3):
            jax.jit(functools.partial(scale, k=k))(jnp.ones(2))
    lambdas = [p for p in report.recompiles() if p.function.name.endswith("<lambda>")]
    assert [d.kind for d in lambdas[0].cause] == ["function"]
    assert f"test_recorder.py:{line}" in lambdas[0].cause[0].hint
    [partial] = [p for p in report.recompiles() if p.function.name.endswith("scale")]
    assert partial.cause[0].after == "a new functools.partial"


def test_a_context_manager_in_the_cache_key_is_named():
    f = jax.jit(lambda x: x @ x)
    x = jnp.ones((2, 2))
    with watch_compiles() as report:
        f(x)
        with jax.default_matmul_precision("highest"):
            f(x)
    [program] = [p for p in report.recompiles() if not p.function.jax_own]
    assert [(d.kind, d.path) for d in program.cause] == [
        ("context", "jax_default_matmul_precision")
    ]


def test_a_cleared_cache_is_said_when_nothing_differs():
    f = jax.jit(lambda x: x - 1)
    x = jnp.ones(2)
    with watch_compiles() as report:
        f(x)
        jax.clear_caches()
        f(x)
    [program] = [p for p in report.recompiles() if not p.function.jax_own]
    assert program.cause == () and program.cause_text() == NO_DIFFERENCE


def test_paths_agree_with_jax_explain_cache_misses(caplog):
    def loss(params, batch):
        return (params["w"] * batch).sum()

    f = jax.jit(loss)
    params = {"w": jnp.ones(3)}
    with (
        watch_compiles() as report,
        jax.explain_cache_misses(True),
        caplog.at_level(logging.WARNING),
    ):
        f(params, jnp.ones(3))
        f(params, jnp.ones((2, 3)))
    jax_says = "\n".join(r.getMessage() for r in caplog.records if "CACHE MISS" in r.getMessage())
    [program] = [p for p in report.recompiles() if p.function.name.endswith("loss")]
    [difference] = program.cause
    assert f"* at {difference.path}, now {difference.after}" in jax_says  # JAX adds the sharding
    assert f"and before {difference.before}" in jax_says


def test_rows_sum_per_function_and_call_site_worst_first():
    f = jax.jit(lambda x: jnp.sin(x) * 2)
    with watch_compiles() as report:
        for n in (1, 2, 3):
            f(jnp.ones(n))
    rows = report.rows()
    assert [r.total for r in rows] == sorted((r.total for r in rows), reverse=True)
    [row] = [r for r in rows if r.name.endswith("<lambda>")]
    assert row.counts == {"trace": 3, "lower": 3, "compile": 3}
    assert row.total == pytest.approx(sum(report.programs[i].total for i in row.programs))


def _count_backend_compiles():
    counts = {"compile": 0}

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            counts["compile"] += 1

    return counts, listen


def _workload(offset: float):
    f = jax.jit(lambda x, y: (x * y).sum() + offset)
    g = jax.jit(lambda x, n: x**n, static_argnums=1)
    out = [f(jnp.ones(n), jnp.ones(n)) for n in (2, 3, 2, 3)]
    out += [g(jnp.arange(3.0), n) for n in (1, 2, 2)]
    out.append(jax.grad(lambda x: f(x, x))(jnp.ones(2)))
    return [jax.device_get(o).tolist() for o in out]


def test_watching_changes_neither_results_nor_the_number_of_compiles():
    counts, listen = _count_backend_compiles()
    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        jax.clear_caches()  # both runs start cold: eager ops compile in each
        plain = _workload(0.5)
        plain_compiles = counts["compile"]
        counts["compile"] = 0
        jax.clear_caches()
        with watch_compiles() as report:
            watched = _workload(0.5)
        watched_compiles = counts["compile"]
    finally:
        _unregister(listen)
    assert watched == plain
    assert watched_compiles == plain_compiles == report.count("compile")


def _unregister(listen) -> None:
    """Remove a test's own listener: JAX's public call, or on JAX 0.7 (which has none) the
    private one."""
    from jax._src import monitoring

    public = getattr(jax.monitoring, "unregister_event_duration_listener", None)
    if public is not None:
        public(listen)
    else:
        monitoring._unregister_event_duration_listener_by_callback(listen)


def test_the_listener_is_unregistered_when_watching_ends():
    with watch_compiles() as report:
        jax.jit(lambda x: x * 3)(jnp.ones(1))
    seen = len(report.programs)
    assert recorder.active() == ()
    jax.jit(lambda x: x * 5)(jnp.ones(1))
    assert len(report.programs) == seen
    from jax._src import monitoring

    if hasattr(jax.monitoring, "unregister_event_duration_listener"):
        assert recorder._listen not in monitoring.get_event_duration_listeners()
    # an older JAX has no public unregister: the listener stays and records nothing (above)


def test_a_trace_that_cannot_be_read_is_still_counted_and_runs(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("unreadable")

    monkeypatch.setattr(capture, "signature", broken)
    with watch_compiles() as report:
        out = jax.jit(lambda x: x + 2)(jnp.ones(2))
    assert out.tolist() == [3.0, 3.0]
    assert report.count("trace") >= 1 and report.count("compile") >= 1
    assert all(p.signature is None for p in report.programs)


def _sharded(axis_type):
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",), axis_types=(axis_type,))
    a = jnp.ones(16)
    return (
        jax.device_put(a, NamedSharding(mesh, P("x"))),
        jax.device_put(a, NamedSharding(mesh, P())),
    )


def test_a_new_input_sharding_lowers_and_compiles_again_without_a_trace():
    split, whole = _sharded(jax.sharding.AxisType.Auto)
    f = jax.jit(lambda a: a * 2)
    with watch_compiles() as report:
        f(split)
        f(whole)
    first, second = [p for p in report.programs if p.function and not p.function.jax_own]
    assert second.stages == {"trace": 0, "lower": 1, "compile": 1}
    assert second.function is first.function and not second.first
    assert "new argument shardings" in second.cause_text()


def test_an_explicit_sharding_change_is_named_as_a_sharding():
    split, whole = _sharded(jax.sharding.AxisType.Explicit)
    f = jax.jit(lambda a: a * 3)
    with watch_compiles() as report:
        f(split)
        f(whole)
    [program] = [p for p in report.recompiles() if not p.function.jax_own]
    [difference] = program.cause
    assert (difference.kind, difference.text()) == ("sharding", "a: f32[16@x] → f32[16]")


def test_notebook_cells_are_labelled_in_n():
    assert capture.place("<ipython-input-3-5f1c2d>", 2).label == "In[3]:2"
    assert capture.place("/home/me/train.py", 12).label == "train.py:12"


def test_a_static_keyword_left_to_its_default_is_said_so():
    f = jax.jit(lambda x, train=True: x * train, static_argnames="train")
    with watch_compiles() as report:
        f(jnp.ones(2))
        f(jnp.ones(2), train=True)
    [program] = [p for p in report.recompiles() if not p.function.jax_own]
    assert program.cause_text() == "train: not passed (its default) → True"


def test_without_the_adapter_a_program_keeps_its_name_site_counts_and_seconds(monkeypatch):
    from jaxdbg_widgets.core._jax_internals import tracing

    monkeypatch.setattr(tracing, "_TRACE_CODE", None)  # as when jit-trace-facts fails
    f = jax.jit(lambda x: x * 13)
    with watch_compiles() as report:
        line = _here() + 1
        f(jnp.ones(2))
    [program] = [p for p in report.programs if p.name == "<lambda>"]
    assert program.function is None and program.signature is None
    assert program.call_site.lineno == line
    assert program.stages == {"trace": 1, "lower": 1, "compile": 1}


def test_pmap_is_named_by_the_users_function_and_a_negative_static_argnum_is_static():
    if getattr(jax.config, "jax_pmap_shmap_merge", True) is False:
        pytest.skip("this JAX traces pmap outside jit (jax_pmap_shmap_merge is off)")
    pm = jax.pmap(lambda rows: rows * 2)
    g = jax.jit(lambda x, k: x * k, static_argnums=-1)
    with watch_compiles() as report:
        pm(jnp.ones((8, 2)))
        pm(jnp.ones((8, 3)))
        g(jnp.ones(2), 3)
        g(jnp.ones(2), 4)
    users = [p for p in report.recompiles() if not p.function.jax_own]
    assert [p.function.defined.label.startswith("test_recorder.py:") for p in users] == [True] * 2
    assert [p.cause_text() for p in users] == ["args[0]: f32[8,2] → f32[8,3]", "k: 3 → 4"]


def test_programs_traced_in_one_context_share_one_context_record():
    f = jax.jit(lambda x: x + 4)
    with watch_compiles() as report:
        f(jnp.ones(2))
        f(jnp.ones(3))
    first, second = [p.signature for p in report.programs if p.name == "<lambda>"]
    assert first.context is second.context


def test_a_trace_on_another_thread_is_recorded_with_that_threads_call_site():
    import threading

    f = jax.jit(lambda x: x * 17)
    lines = []

    def work():
        lines.append(_here() + 1)
        f(jnp.ones(2)).block_until_ready()

    with watch_compiles() as report:
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    [program] = [p for p in report.programs if p.name == "<lambda>"]
    assert program.call_site.lineno == lines[0]
    assert program.stages == {"trace": 1, "lower": 1, "compile": 1}

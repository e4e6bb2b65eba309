"""The JAX adapter checks every private name it uses at import and degrades, never fails."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core import _jax_internals as jx

EXPECTED = {
    "primitive",
    "debug-effects",
    "transformation-rules",
    "lowering-rules",
    "callback-lowering",
    "partitioned-callbacks",
    "callback-mesh-context",
    "mesh-position",
    "runtime-tokens",
    "debugger-registry",
    "cli-debugger",
    "debugger-frames",
    "callback-loggers",
    "backends-started",
    "buffer-assignment",
    "transpose-tracebacks",
    "scan-layout",
    "nan-recheck",
    "nan-recheck-transformed",
    "transposed-rule-lines",
    "nan-check-shard-map",
    "shard-map-vma",
    "jit-static-arguments",
    "jaxpr-dce",
    "vmap-batch-axes",
    "jit-trace-facts",
    "trace-context",
    "jit-lowered-module",
}


def _jax_capabilities() -> dict[str, caps.Capability]:
    return {c.name: c for c in caps.all_capabilities() if c.library == "jax"}


def test_every_private_dependency_is_recorded_with_the_feature_it_enables():
    recorded = _jax_capabilities()
    assert set(recorded) >= EXPECTED
    assert all(c.feature for c in recorded.values())
    assert all(c.reason for c in recorded.values() if not c.ok)


def test_the_lowering_adapts_to_this_jax_by_signature():
    if jx.HOST_CALL:
        assert "has_side_effect" in jx._EMIT_KEYWORDS
        assert "platform" in jx._LOWERING_KEYWORDS


def test_callback_loggers_are_named_by_jax_itself():
    if jx.CALLBACK_LOGGERS:
        assert all(name.startswith("jax.") for name in jx.callback_logger_names())


def _run(prelude: str, body: str) -> str:
    script = (
        textwrap.dedent(prelude) + "\nimport jax, jaxdbg_widgets as jdw\n" + textwrap.dedent(body)
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=180, check=True
    )
    return done.stdout


CHANGED_EMIT = """
import jax._src.callback as callback
original = callback.emit_python_callback
def emit_python_callback(*args, **kwargs):
    return original(*args, **kwargs)
callback.emit_python_callback = emit_python_callback
"""


def test_a_changed_callback_lowering_turns_off_only_the_primitive_and_prints_still_work():
    """Prints and callbacks go through ``jax.debug.callback``; ``jax.debug.print`` stays JAX's."""
    out = _run(
        CHANGED_EMIT,
        """
        import json
        from jaxdbg_widgets import _capabilities as caps
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        f = jax.jit(lambda x: jdw.print("x = {x}", x=x) or jdw.callback(print, x + 1) or x)
        f(1.0)
        jax.vmap(lambda x: jdw.print("v = {}", x, vmap_method="expand_dims"))(jax.numpy.arange(2))
        jdw.effects_barrier()
        from jaxdbg_widgets.notebook import routing
        jax_print = jax.debug.print
        routing.route_jax_debug_print(None)
        print("jax.debug.print kept:", jax.debug.print is jax_print)
        """,
    )
    lines = out.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {"callback-lowering"}
    assert lines[1:] == ["x = 1.0", "2.0", "v = 0", "v = 1", "jax.debug.print kept: True"]


def test_a_missing_debugger_registry_leaves_jax_s_registry_alone():
    """Nothing is registered, and breakpoints are answered by JAX's own typed debugger."""
    out = _run(
        "import jax._src.debugger.core as core\ncore._debugger_registry = list(core._debugger_registry)",
        """
        from jaxdbg_widgets.core import jax_registry
        undo = jax_registry.register("ours", lambda *a, **k: None, 100)
        undo()
        print(jax_registry.available(), jax_registry.backends())
        from jax._src.debugger import cli_debugger
        print(jax_registry.lookup("ours") is cli_debugger.run_debugger)
        """,
    )
    assert out.splitlines() == ["False []", "True"]


def test_a_changed_debugger_frame_gives_foreign_backends_jaxdbg_frames_without_globals():
    """Only ``debugger-frames`` turns off; a backend not ours still gets the user's frames."""
    out = _run(
        "import jax._src.debugger.core as core\ndel core.DebuggerFrame.from_frameinfo",
        """
        import json
        from jaxdbg_widgets import _capabilities as caps
        from jaxdbg_widgets.core import jax_registry
        from jaxdbg_widgets.core.breakpoints import jax_breakpoint
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        seen = []
        undo = jax_registry.register("theirs", lambda frames, tid, **kw: seen.append(frames), -100)
        def f(x):
            jax_breakpoint(backend="theirs")
            return x
        jax.jit(f)(1.0).block_until_ready()
        jdw.effects_barrier()
        undo()
        ((frame, *_),) = seen
        print(type(frame).__name__, float(frame.locals["x"]), frame.globals)
        """,
    )
    lines = out.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {"debugger-frames"}
    assert lines[1:] == ["Frame 1.0 {}"]


def test_a_wrapped_jit_impl_turns_off_only_the_transformed_nan_search():
    """A plain jitted call's failed check is still answered by the search."""
    out = _run(
        """
        import jax._src.pjit as pjit
        original = pjit.jit_p.impl
        pjit.jit_p.def_impl(lambda *args, **params: original(*args, **params))
        """,
        """
        import json
        from jaxdbg_widgets import _capabilities as caps
        from jaxdbg_widgets.nans import recheck
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        undo = recheck.install()
        jax.config.update("jax_debug_nans", True)
        try:
            jax.jit(jax.numpy.log)(-1.0)
        except FloatingPointError as error:
            print(error.report.origin.primitive, recheck.installed())
        undo()
        """,
    )
    lines = out.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {
        "nan-recheck-transformed",
        "transposed-rule-lines",
    }
    assert lines[1:] == ["log True"]


CHANGED_TRANSPOSE_RULE = """
from jax._src import pjit

_original = pjit.{rule}


def {rule}(cts_in, *args, **params):
    \"\"\"A rule that traces its backward program some other way, then calls jit_p.bind(...).\"\"\"
    return _original(cts_in, *args, **params)
"""


@pytest.mark.skipif(not jx.TRANSPOSED_RULE_LINES, reason="this JAX has no transposed-rule-lines")
def test_a_changed_jit_transpose_rule_turns_off_only_the_backward_rule_line(tmp_path):
    """Under grad(jit(f)) the origin is still found, at the line that called the function."""
    rule = next(r for r in ("_pjit_transpose_fancy", "_pjit_transpose") if hasattr(jx._pjit, r))
    (tmp_path / "changed_rule.py").write_text(CHANGED_TRANSPOSE_RULE.format(rule=rule))
    out = _run(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import jax._src.pjit as pjit
        import changed_rule
        pjit.{rule} = changed_rule.{rule}
        """,
        """
        import json
        from jaxdbg_widgets import _capabilities as caps
        from jaxdbg_widgets.nans import recheck
        from tests.unit.nans import cases
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        undo = recheck.install()
        jax.config.update("jax_debug_nans", True)
        try:
            jax.grad(jax.jit(cases.custom_vjp_loss))(-1.0)
        except FloatingPointError as error:
            origin = error.report.origin
            print(origin.direction, origin.source.function, origin.rule)
        undo()
        """,
    )
    lines = out.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {"transposed-rule-lines"}
    assert lines[1:] == ["backward custom_vjp_loss None"]


CHANGED_SHARD_MAP_CHECK = """
from jax._src import shard_map
_original = shard_map._maybe_check_special
def _maybe_check_special(outs, where="step"):
    return _original(outs)
shard_map._maybe_check_special = _maybe_check_special
"""


@pytest.mark.skipif(not jx.SHARD_MAP_NAN_CHECK, reason="this JAX has no nan-check-shard-map")
def test_a_changed_shard_map_check_turns_off_only_the_device_naming():
    """An unjitted shard_map's NaN still raises, with JAX's own message."""
    out = _run(
        CHANGED_SHARD_MAP_CHECK,
        """
        import json
        from jax.sharding import NamedSharding, PartitionSpec as P
        from jaxdbg_widgets import _capabilities as caps
        from jaxdbg_widgets.nans import recheck
        from tests.unit.nans import cases
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        undo = recheck.install()
        jax.config.update("jax_debug_nans", True)
        mesh = jax.make_mesh((8,), ("x",))
        mapped = jax.shard_map(cases.sharded_sqrt, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
        x = jax.device_put(jax.numpy.arange(16.0) - 10.0, NamedSharding(mesh, P("x")))
        try:
            mapped(x)
        except FloatingPointError as error:
            print("device blocks" in str(error), recheck.installed())
        undo()
        """,
    )
    lines = out.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {"nan-check-shard-map"}
    assert lines[1:] == ["False True"]

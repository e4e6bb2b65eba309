"""find_nonfinite in a real kernel: its widget, and the debugger opened at the origin."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import recheck
from tests.fixtures.kernel import KernelSession, Message
from tests.kernel.test_debugger_kernel import Debugging

pytestmark = pytest.mark.kernel

REPORT_ID = "jaxdbg_widgets.nans.widget.NonfiniteWidget"

SETUP = textwrap.dedent(
    """
    %load_ext jaxdbg
    import jax, jax.numpy as jnp
    import jaxdbg_widgets as jdw

    def body(carry, x):
        y = jnp.log(carry - x)
        return carry, y

    program = jax.jit(lambda xs: jax.lax.scan(body, 3.0, xs)[1])
    report = jdw.find_nonfinite(program, jnp.arange(6.0))
    """
)


def _report_open(msg: Message) -> bool:
    return (
        msg["msg_type"] == "comm_open"
        and msg["content"]["data"]["state"].get("_anywidget_id") == REPORT_ID
    )


@pytest.fixture(scope="module")
def nan_kernel(shared_kernel: KernelSession) -> KernelSession:
    result = shared_kernel.execute(SETUP)
    assert result.error is None, result.error
    return shared_kernel


def test_the_report_shows_as_its_widget_with_the_static_twin(nan_kernel):
    result = nan_kernel.start("report")
    opened = nan_kernel.wait_for(_report_open, timeout=60)
    view = opened["content"]["data"]["state"]["view"]
    assert view["origins"][0]["facts"][2] == "where: scan iteration 3"
    marked = [row for row in view["origins"][0]["source"]["lines"] if row["marked"]]
    assert marked[0]["text"].strip() == "y = jnp.log(carry - x)"
    assert view["origins"][0]["source"]["filename"] == "In[1]"  # never the kernel's temp file
    done = nan_kernel.wait(result)
    assert "scan iteration 3" in done.data("text/html")[0]
    assert "ipykernel_" not in done.data("text/html")[0]


def test_debug_opens_the_debugger_widget_at_the_origin_with_its_locals(nan_kernel):
    dbg = Debugging(nan_kernel, "report.debug()")
    assert dbg.view["header"]["function"] == "body"
    assert {"in0", "out0"} <= {row["name"] for row in dbg.view["locals"]}
    view = dbg.command("p out0")
    assert view["transcript"][-1]["output"] == "array(-inf, dtype=float32)"
    dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    assert dbg.finish().error is None


def _debugger_update(comm_id: str, until) -> Callable[[Message], bool]:
    def matches(msg: Message) -> bool:
        if msg["msg_type"] != "comm_msg" or msg["content"]["comm_id"] != comm_id:
            return False
        data = msg["content"]["data"]
        view = data.get("state", {}).get("debugger") if data.get("method") == "update" else None
        return view is not None and until(view)

    return matches


def test_the_button_opens_the_debugger_in_the_widget_after_the_cell_ended(nan_kernel):
    shown = nan_kernel.execute("report")
    assert shown.error is None, shown.error
    comm_id = next(m for m in shown.of_type("comm_open") if _report_open(m))["content"]["comm_id"]
    nan_kernel.send_custom(comm_id, {"type": "debug"})
    opened = nan_kernel.wait_for(_debugger_update(comm_id, lambda v: v["status"] == "waiting"))
    view = opened["content"]["data"]["state"]["debugger"]
    assert view["header"]["function"] == "body"
    assert {"in0", "out0"} <= {row["name"] for row in view["locals"]}
    nan_kernel.send_custom(comm_id, {"type": "command", "line": "p in0"})
    answered = nan_kernel.wait_for(_debugger_update(comm_id, lambda v: len(v["transcript"]) == 1))
    entry = answered["content"]["data"]["state"]["debugger"]["transcript"][-1]
    assert entry == {"command": "p in0", "output": "array(0., dtype=float32)", "error": False}
    nan_kernel.send_custom(comm_id, {"type": "command", "line": "c"})
    nan_kernel.wait_for(_debugger_update(comm_id, lambda v: v["status"] == "continue"))
    assert nan_kernel.execute("1 + 1").error is None


LONG_SEARCH = textwrap.dedent(
    """
    def step(state):
        i, value = state
        return i + 1, value + jnp.log(jnp.float32(N - 1) - i.astype(jnp.float32))

    N = 1_000_000  # log(0) in the last iteration, every iteration opened one at a time:
    from jaxdbg_widgets.nans import loops as _search  # (a long loop otherwise runs compiled)
    _fast, _search.FAST_AFTER = _search.FAST_AFTER, N
    jax.config.update("jax_debug_nans", True)
    try:
        jdw.find_nonfinite(lambda x: jax.lax.while_loop(lambda s: s[0] < N, step, (0, x))[1], 0.0)
    finally:
        _search.FAST_AFTER = _fast
    """
)


def _progress_of(result, state: str) -> Callable[[Message], bool]:
    def matches(msg: Message) -> bool:
        if msg["msg_type"] not in ("display_data", "update_display_data"):
            return False
        if msg.get("parent_header", {}).get("msg_id") != result.msg_id:
            return False
        text = msg["content"]["data"].get("text/plain", "")
        return text.startswith("find_nonfinite(<lambda>)") and (state in text or not state)

    return matches


def test_a_long_search_shows_progress_and_ctrl_c_stops_it_leaving_the_kernel_usable(nan_kernel):
    result = nan_kernel.start(LONG_SEARCH)
    first = nan_kernel.wait_for(_progress_of(result, ""), timeout=120)
    assert first["msg_type"] == "display_data"
    assert "equations checked (program: " in first["content"]["data"]["text/plain"]
    assert "<progress" in first["content"]["data"]["text/html"]
    updated = _progress_of(result, "")
    nan_kernel.wait_for(lambda m: m["msg_type"] == "update_display_data" and updated(m), timeout=30)
    nan_kernel.interrupt()
    done = nan_kernel.wait(result, timeout=60)
    assert done.error["ename"] == "KeyboardInterrupt"
    assert "find_nonfinite(<lambda>) stopped after " in done.error["evalue"]
    final = [m for m in done.of_type("update_display_data") if _progress_of(result, "")(m)][-1]
    assert "interrupted: " in final["content"]["data"]["text/plain"]
    after = nan_kernel.execute(
        "print(jax.config.jax_debug_nans, jdw.find_nonfinite(jnp.log, -1.0).origin.primitive)\n"
        'jax.config.update("jax_debug_nans", False)'
    )
    assert after.error is None, after.error
    assert after.stdout == "True log\n"


BRANCH_LOOP_AND_RULE = textwrap.dedent(
    """
    from jax import lax

    def branchy(x):
        return lax.cond(x > 0, lambda v: jnp.log(-v), lambda v: v, x)

    def looped(x):
        def turn(state):
            i, value = state
            return i + 1, value + jnp.log(3.0 - i.astype(jnp.float32))
        return lax.while_loop(lambda state: state[0] < 6, turn, (0, x))[1]

    @jax.custom_vjp
    def clipped(x):
        return jnp.sin(x)
    def clipped_bwd(residual, cotangent):
        return (cotangent * jnp.log(residual),)
    clipped.defvjp(lambda x: (jnp.sin(x), x), clipped_bwd)

    for fun, arg in [(jax.jit(branchy), 1.0), (looped, 0.0), (jax.grad(clipped), -1.0)]:
        o = jdw.find_nonfinite(fun, arg).origin
        print(o.primitive, o.direction, o.path, o.rule, o.source.function, o.source.text.strip(), sep="|")
    """
)


def test_a_cond_branch_a_while_iteration_and_a_custom_vjp_rule_are_named_in_the_kernel(
    nan_kernel,
):
    result = nan_kernel.execute(BRANCH_LOOP_AND_RULE)
    assert result.error is None, result.error
    branch, loop, rule = [line.split("|") for line in result.stdout.splitlines()]
    assert branch == [
        "log",
        "forward",
        "('cond true branch',)",
        "None",
        "branchy.<locals>.<lambda>",
        "return lax.cond(x > 0, lambda v: jnp.log(-v), lambda v: v, x)",
    ]
    assert loop[:5] == ["log", "forward", "('while iteration 3',)", "None", "looped.<locals>.turn"]
    assert loop[5] == "return i + 1, value + jnp.log(3.0 - i.astype(jnp.float32))"
    if internals.RULE_TRACEBACKS:
        assert rule[:4] == ["log", "backward", "()", "custom_vjp backward rule clipped_bwd"]
        assert rule[4] == "clipped_bwd"
        assert rule[5] == "return (cotangent * jnp.log(residual),)"
    else:
        assert rule[:4] == ["log", "backward", "()", "None"]  # JAX keeps no rule lines here


NANS_ON = textwrap.dedent(
    """
    %jaxdbg nans on
    step = jax.jit(lambda xs: jax.lax.scan(body, 3.0, xs)[1] * 2.0)
    """
)


def test_nans_on_opens_the_debugger_at_the_origin_of_a_jitted_nan(nan_kernel):
    assert nan_kernel.execute(NANS_ON).error is None
    try:
        dbg = Debugging(nan_kernel, "step(jnp.arange(6.0))")
        assert dbg.view["header"]["function"] == "body"
        assert dbg.view["header"]["line"] == 6  # the log line of SETUP's body
        assert {"in0", "out0"} <= {row["name"] for row in dbg.view["locals"]}
        view = dbg.command("p in0")
        assert view["transcript"][-1]["output"] == "array(0., dtype=float32)"
        dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
        done = dbg.finish()
        assert done.error["ename"] == "FloatingPointError"
        assert "y = jnp.log(carry - x)" in done.error["evalue"].splitlines()[0]
        assert "(forward; scan iteration 3)" in done.error["evalue"].splitlines()[0]
        quit_ = Debugging(nan_kernel, "step(jnp.arange(6.0))")
        quit_.send({"type": "command", "line": "q"}, lambda v: v["status"] != "waiting")
        assert quit_.finish().error["ename"] == "FloatingPointError"
    finally:
        off = nan_kernel.execute("%jaxdbg nans off")
    assert off.error is None and off.stdout.startswith("nan checks: off")
    assert nan_kernel.execute("print(step(jnp.arange(2.0)))").stdout.startswith("[")


GRAD_OF_JIT = textwrap.dedent(
    """
    %jaxdbg nans on
    @jax.custom_vjp
    def clipped(x):
        return jnp.sin(x)

    def clipped_bwd(r, g):
        return (g * jnp.log(r),)

    clipped.defvjp(lambda x: (jnp.sin(x), x), clipped_bwd)

    def loss(x):
        return clipped(x) * 2.0

    grad_step = jax.grad(jax.jit(loss))
    """
)


@pytest.mark.skipif(
    not recheck.transformed_available(), reason="this JAX has no nan-recheck-transformed"
)
def test_nans_on_opens_the_debugger_at_the_backward_origin_of_a_grad_of_jit(nan_kernel):
    assert nan_kernel.execute(GRAD_OF_JIT).error is None
    try:
        dbg = Debugging(nan_kernel, "grad_step(-1.0)")
        header = dbg.view["header"]
        if internals.TRANSPOSED_RULE_LINES:  # the rule's line, in GRAD_OF_JIT
            assert (header["function"], header["line"]) == ("clipped_bwd", 7)
        else:  # the line calling clipped
            assert (header["function"], header["line"]) == ("loss", 12)
        dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
        first = dbg.finish().error["evalue"].splitlines()[0]
        assert "in the output of the backward pass of jit(loss): first made by log" in first
        rule_line = "return (g * jnp.log(r),) (backward)"
        call_line = "return clipped(x) * 2.0 (backward)"
        assert (rule_line if internals.TRANSPOSED_RULE_LINES else call_line) in first
    finally:
        off = nan_kernel.execute("%jaxdbg nans off")
    assert off.error is None


UNJITTED_SHARD_MAP = textwrap.dedent(
    """
    %jaxdbg nans on
    from jax.sharding import NamedSharding, PartitionSpec as P

    def sharded_sqrt(x):
        return jnp.sqrt(x * 2.0)

    mesh = jax.make_mesh((8,), ("x",))
    mapped = jax.shard_map(sharded_sqrt, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    xs = jax.device_put(jnp.arange(16.0) - 10.0, NamedSharding(mesh, P("x")))
    """
)


@pytest.mark.skipif(not internals.SHARD_MAP_NAN_CHECK, reason="this JAX has no nan-check-shard-map")
def test_nans_on_opens_the_debugger_at_an_unjitted_shard_map_step(nan_kernel):
    assert nan_kernel.execute(UNJITTED_SHARD_MAP).error is None
    try:
        dbg = Debugging(nan_kernel, "mapped(xs)")
        assert (dbg.view["header"]["function"], dbg.view["header"]["line"]) == ("sharded_sqrt", 5)
        view = dbg.command("p in0")
        assert view["transcript"][-1]["output"] == "array([-20., -18.], dtype=float32)"
        dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
        first = dbg.finish().error["evalue"].splitlines()[0]
        assert "in an unjitted shard_map step: first made by sqrt at " in first
        assert first.endswith("on 5 of 8 devices; nothing was run again")
    finally:
        off = nan_kernel.execute("%jaxdbg nans off")
    assert off.error is None
    assert nan_kernel.execute("print(jnp.isnan(mapped(xs)).sum())").stdout.strip() == "10"


NNX_STEP = textwrap.dedent(
    """
    %jaxdbg nans on
    import optax
    from flax import nnx

    model = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
    model.kernel[...] = jnp.full((2, 3), -1.0)  # no unit ever fires under the relu
    optimizer = nnx.Optimizer(model, optax.adam(1e-3, eps=0.0), wrt=nnx.Param)

    @nnx.jit
    def train_step(model, optimizer, x):
        grads = nnx.grad(lambda m: jnp.mean(jax.nn.relu(m(x)) ** 2))(model)
        optimizer.update(model, grads)
    """
)


def test_nans_on_opens_the_debugger_in_an_nnx_step_at_the_optimizer_line(nan_kernel):
    """The NaN goes only into the model's state, updated in place: never returned."""
    assert nan_kernel.execute(NNX_STEP).error is None
    try:
        dbg = Debugging(nan_kernel, "train_step(model, optimizer, jnp.ones((4, 2)))")
        assert dbg.view["header"]["function"] == "train_step"
        assert dbg.view["header"]["line"] == 12  # optimizer.update, in NNX_STEP's cell
        assert {"in0", "out0"} <= {row["name"] for row in dbg.view["locals"]}
        dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
        done = dbg.finish()
        assert done.error["ename"] == "FloatingPointError"
        assert "optimizer.update(model, grads)" in done.error["evalue"].splitlines()[0]
    finally:
        assert nan_kernel.execute("%jaxdbg nans off").error is None

"""``%jaxdbg comms CALL``: the call's parts are evaluated, not called; errors are one line."""

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import command as comms_command
from jaxdbg_widgets.notebook import commands

from .test_golden import make_mesh, struct


def test_a_call_is_mapped_without_running_it():
    mesh = make_mesh((8,), ("data",))
    calls = []

    def total(x, *, scale):
        calls.append(1)
        return (x * scale).sum()

    namespace = {"total": total, "x": struct((16,), mesh, P("data")), "options": {"scale": 2.0}}
    comms = comms_command.evaluate("total(*[x], **options)", namespace)
    (reduce,) = comms.collectives
    assert reduce.kind == "all-reduce" and reduce.span.axes == ("data",)
    assert calls == [1]  # traced once for lowering, never run on data
    assert comms.inputs[0].spec == "P('data',)"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("comms", "comms needs a call"),
        ("comms x + 1", "is not a call"),
        ("comms nope(1)", r"'nope' in 'nope\(1\)' failed: NameError"),
        ("comms f(", "is not an expression"),
    ],
)
def test_wrong_use_is_one_usage_line(monkeypatch, line, message):
    monkeypatch.setattr(comms_command, "_user_namespace", lambda: {"x": 1})
    with pytest.raises(commands.UsageError, match=message):
        commands.run(line)


def test_a_failing_compile_is_one_line(monkeypatch):
    namespace = {"bad": lambda v: v @ v, "v": jnp.ones((3,))}
    monkeypatch.setattr(comms_command, "_user_namespace", lambda: namespace)
    with pytest.raises(commands.UsageError, match=r"comms: compiling 'bad\(v, v\)' failed"):
        commands.run("comms bad(v, v)")


def test_completion_offers_callables(monkeypatch):
    namespace = {"step": jax.jit(len), "params": {}, "_hidden": len, "jnp": jnp, "Cls": int}
    monkeypatch.setattr(comms_command, "_user_namespace", lambda: namespace)
    assert commands.complete("%jaxdbg comm") == ["comms"]
    assert commands.complete("%jaxdbg comms st") == ["step"]
    assert "%jaxdbg comms CALL" in commands.help_text()

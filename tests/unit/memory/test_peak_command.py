"""``%jaxdbg peak CALL``: the call is parsed and analysed, never run; errors are one usage line."""

import jax
import jax.numpy as jnp
import pytest

from jaxdbg_widgets.memory import peak_command
from jaxdbg_widgets.notebook import commands


def test_a_call_is_analysed_in_the_namespace_without_running():
    runs = []

    def step(x, scale=1.0):
        runs.append("traced")
        return jnp.tanh(x * scale).sum()

    huge = jax.ShapeDtypeStruct((1 << 33,), jnp.float32)  # 32 GiB: it cannot have run
    peaks = peak_command.evaluate("step(x, scale=2.0)", {"step": step, "x": huge})
    assert peaks.report.name == "step"
    assert peaks.report.peak_bytes >= huge.size * 4
    assert runs == ["traced"]  # traced once to compile, never called on data


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("peak", r"peak needs a call"),
        ("peak x +", r"peak: 'x \+' is not an expression"),
        ("peak x", r"peak: 'x' is not a call"),
        ("peak nope(1)", r"peak: 'nope' in 'nope\(1\)' failed: NameError"),
        ("peak notfun(1)", r"peak: peak_memory needs a function or a dict of them, got a int: 3"),
    ],
)
def test_bad_calls_are_one_usage_line(monkeypatch, line, message):
    monkeypatch.setattr(peak_command, "_user_namespace", lambda: {"x": 1, "notfun": 3})
    with pytest.raises(commands.UsageError, match=message):
        commands.run(line)


def test_peak_is_listed_with_its_usage():
    assert "%jaxdbg peak CALL" in commands.help_text()
    assert commands.complete("%jaxdbg pe") == ["peak"]

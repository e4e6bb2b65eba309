"""The print routing, print log and nans features inside an in-process IPython shell."""

import jax
import pytest
from IPython import get_ipython
from IPython.testing.globalipapp import start_ipython

from jaxdbg_widgets.core import sinks
from jaxdbg_widgets.notebook import cells, commands, extension, routing, session_log

EVENTS = ("pre_run_cell", "post_execute", "post_run_cell")


@pytest.fixture
def ip():
    shell = start_ipython() or get_ipython()
    yield shell
    if extension.is_loaded():
        shell.run_line_magic("unload_ext", "jaxdbg")


def _callbacks(ip):
    return {event: list(ip.events.callbacks[event]) for event in EVENTS}


def test_unload_restores_print_hooks_flags_and_sinks(ip):
    before = (jax.debug.print, _callbacks(ip), list(sinks._sinks), jax.config.jax_debug_nans)
    ip.run_line_magic("load_ext", "jaxdbg")
    assert jax.debug.print.__module__ == "jaxdbg_widgets.core.printing"
    ip.run_line_magic("jaxdbg", "nans on")
    ip.run_line_magic("unload_ext", "jaxdbg")
    after = (jax.debug.print, _callbacks(ip), list(sinks._sinks), jax.config.jax_debug_nans)
    assert after == before
    with pytest.raises(RuntimeError, match="load_ext jaxdbg"):
        session_log.session_log()


def test_jax_debug_print_is_logged_with_its_cell(ip, capsys):
    ip.run_line_magic("load_ext", "jaxdbg")
    ip.run_cell("import jax, jax.numpy as jnp", store_history=True)
    result = ip.run_cell(
        "@jax.jit\ndef f(x):\n    jax.debug.print('x={x}', x=x)\n    return x\nf(jnp.arange(3.0))",
        store_history=True,
    )
    assert cells.current_cell() is None
    assert "x=[0. 1. 2.]" in capsys.readouterr().out
    ip.run_line_magic("jaxdbg", "log text")
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["#", "cell", "call", "site", "text"]
    count = result.execution_count
    assert table[1].split() == [
        "1",
        f"[{count}]",
        f"In[{count}]:3",
        "in",
        "f",
        "x=[0.",
        "1.",
        "2.]",
    ]


def test_log_clear_and_bad_use(ip, capsys):
    ip.run_line_magic("load_ext", "jaxdbg")
    capsys.readouterr()
    ip.run_line_magic("jaxdbg", "log clear")
    assert capsys.readouterr().out == "print log cleared\n"
    ip.run_line_magic("jaxdbg", "log everything")
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == (
        "%jaxdbg: log takes one of show|text|clear, got 'everything'"
    )
    assert "Traceback" not in captured.err


def test_nans_bad_use_is_one_line_and_usage(ip, capsys):
    ip.run_line_magic("load_ext", "jaxdbg")
    ip.run_line_magic("jaxdbg", "nans sometimes")
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "%jaxdbg: nans takes one of on|off, got 'sometimes'"
    assert "%jaxdbg nans [on|off]" in err


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%jaxdbg n", ["nans"]),
        ("%jaxdbg l", ["log"]),
        ("%jaxdbg nans ", ["on", "off"]),
        ("%jaxdbg nans o", ["on", "off"]),
        ("%jaxdbg log ", ["show", "text", "clear"]),
        ("%jaxdbg log c", ["clear"]),
    ],
)
def test_completion_offers_the_new_subcommands_and_choices(line, expected):
    assert commands.complete(line) == expected


CALLBACK_FAILURE = (
    "INTERNAL: CpuCallback error calling callback: Traceback (most recent call last):\n"
    '  File "/tmp/ipykernel_1/2.py", line 2, in explode\n'
    "ValueError: bad value\n"
)


@pytest.mark.parametrize(
    ("error", "reported"),
    [
        (RuntimeError(CALLBACK_FAILURE), "ValueError: bad value"),
        (ValueError("bad value"), "ValueError: bad value"),
        (RuntimeError("first line\nsecond line"), "RuntimeError: first line"),
    ],
)
def test_a_failed_computation_is_reported_in_one_line(monkeypatch, capsys, error, reported):
    def failing_barrier():
        raise error

    monkeypatch.setattr(routing, "effects_barrier", failing_barrier)
    routing.wait_for_effects()
    assert capsys.readouterr().err == (
        f"jaxdbg: a computation started in this cell failed: {reported}\n"
    )

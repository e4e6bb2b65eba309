"""A breakpoint whose widget no front end draws still gets an answer: typed, or headless.

The kernel remembers a widget that never acknowledged; each test starts from a kernel that has
not seen one (``_forget``), so they pass in any order."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.fixtures.kernel import ExecutionResult, KernelSession, Message, widget_displayed

pytestmark = pytest.mark.kernel

SETUP = """
%load_ext jaxdbg
import jax, jax.numpy as jnp

@jax.jit
def f(x):
    y = x * 2
    jax.debug.breakpoint()
    return y + 1
"""
RUN = "print('result', f(jnp.arange(3.0)).tolist())"
FALLBACK = "no front end showed the debugger widget within 0.5 s"


@pytest.fixture(scope="module")
def unrendered() -> Iterator[KernelSession]:
    """A kernel whose widgets get half a second to say they rendered."""
    session = KernelSession(extra_env={"JAXDBG_RENDER_TIMEOUT": "0.5"})
    try:
        assert session.execute(SETUP).error is None
        yield session
    finally:
        session.close()


FORGET = "from jaxdbg_widgets.debugger.widget import render_memory; render_memory.note_rendered()"
LOOP = "for _ in range(3):\n    f(jnp.arange(3.0)).block_until_ready()\nprint('looped')"


@pytest.fixture(autouse=True)
def _forget(unrendered: KernelSession) -> None:
    assert unrendered.execute(FORGET).error is None


def _answer_prompts(session: KernelSession, result: ExecutionResult, lines: list[str]) -> None:
    for line in lines:
        request = session.input_request(result)
        assert request["content"]["prompt"] == "(jdb) "
        session.client.input(line)


def _debugger_comm(msg: Message) -> bool:
    state = (
        msg["content"].get("data", {}).get("state", {}) if msg["msg_type"] == "comm_open" else {}
    )
    return "view" in state


def test_a_client_that_never_renders_gets_the_typed_prompt(unrendered: KernelSession) -> None:
    result = unrendered.start(RUN, allow_stdin=True)
    unrendered.wait_for(_debugger_comm)
    for line in ("p y", "c"):
        request = unrendered.input_request(result)
        assert request["content"]["prompt"] == "(jdb) "
        unrendered.client.input(line)
    unrendered.wait(result)
    assert result.error is None, result.error
    assert FALLBACK in result.stdout
    assert "Array([0., 2., 4.], dtype=float32)" in result.stdout
    assert "result [1.0, 3.0, 5.0]" in result.stdout


def test_without_stdin_the_headless_policy_applies(unrendered: KernelSession) -> None:
    result = unrendered.execute(RUN, allow_stdin=False)
    assert result.error is None, result.error
    assert "headless policy 'continue'" in result.stdout
    assert "result [1.0, 3.0, 5.0]" in result.stdout


def test_a_rendered_widget_keeps_waiting_for_clicks(unrendered: KernelSession) -> None:
    result = unrendered.start(RUN, allow_stdin=True)
    comm_id = unrendered.wait_for(_debugger_comm)["content"]["comm_id"]
    unrendered.wait_for(widget_displayed(comm_id))
    unrendered.send_custom(comm_id, {"type": "rendered"})
    time.sleep(1.5)  # three times the render timeout: an acknowledged widget is not given up
    unrendered.send_custom(comm_id, {"type": "command", "line": "c"})
    unrendered.wait(result)
    assert result.error is None, result.error
    assert FALLBACK not in result.stdout
    assert "result [1.0, 3.0, 5.0]" in result.stdout


def test_after_one_timeout_later_hits_and_cells_skip_the_wait(unrendered: KernelSession) -> None:
    looped = unrendered.start(LOOP, allow_stdin=True)
    _answer_prompts(unrendered, looped, ["c", "c", "c"])
    unrendered.wait(looped)
    assert looped.error is None, looped.error
    assert looped.stdout.count(FALLBACK) == 1, "only the first hit waited for the widget"
    assert looped.stdout.count("Breakpoint") == 3
    assert "looped" in looped.stdout
    later = unrendered.start(RUN, allow_stdin=True)
    comm_id = unrendered.wait_for(_debugger_comm)["content"]["comm_id"]
    unrendered.wait_for(widget_displayed(comm_id))
    unrendered.send_custom(comm_id, {"type": "rendered"})  # a front end drew it after all
    _answer_prompts(unrendered, later, ["c"])
    unrendered.wait(later)
    assert later.error is None, later.error
    assert FALLBACK not in later.stdout, "a later cell went straight to the typed prompt"
    clicked = unrendered.start(RUN, allow_stdin=True)
    comm_id = unrendered.wait_for(_debugger_comm)["content"]["comm_id"]
    unrendered.wait_for(widget_displayed(comm_id))
    unrendered.send_custom(comm_id, {"type": "command", "line": "c"})
    unrendered.wait(clicked)
    assert clicked.error is None, clicked.error
    assert "Breakpoint" not in clicked.stdout, "the acknowledged widget is clickable again"
    assert "result [1.0, 3.0, 5.0]" in clicked.stdout

"""``%jaxdbg log`` and ``%jaxdbg nans`` in a real kernel, answered like a browser would."""

import json
import re

import pytest

pytestmark = pytest.mark.kernel

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
PRINTS = """
import jax, jax.numpy as jnp

@jax.jit
def count(n):
    def body(i, total):
        jax.debug.print("step {i}", i=i)
        return total + i
    return jax.lax.fori_loop(0, n, body, 0)
"""


@pytest.fixture(scope="module")
def loaded(shared_kernel):
    shared_kernel.execute("%load_ext jaxdbg")
    shared_kernel.execute(PRINTS)
    return shared_kernel


def _updates(messages, comm_id):
    return [
        m["content"]["data"]
        for m in messages
        if m["msg_type"] == "comm_msg"
        and m["content"]["comm_id"] == comm_id
        and m["content"]["data"].get("method") == "update"
    ]


def _seen(update):
    """How many prints the table had seen when it sent ``update`` (None if it sent no counts)."""
    return update["state"].get("stats", {}).get("seen")


_LIVE_TABLES: dict[str, str] = {}
"""The comm of each live table seen so far, by its link key: one table per log, opened the
first time the log is shown."""


def _open_log(kernel):
    """Show the log; return the comm of the live table its output links to, and its text."""
    result = kernel.execute("%jaxdbg log")
    assert result.data(WIDGET_MIME) == []  # one standalone output: it lasts after a restart
    [html] = result.data("text/html")
    [text] = result.data("text/plain")
    link = re.search(r'"link":"([0-9a-f]{32})"', html).group(1)
    for message in result.messages + kernel._other:
        if message["msg_type"] == "comm_open":
            state = message["content"]["data"].get("state", {})
            if state.get("link"):
                _LIVE_TABLES[state["link"]] = message["content"]["comm_id"]
    return _LIVE_TABLES[link], text


def test_log_shows_a_live_table_and_the_filter_box_refilters(loaded):
    loaded.execute("%jaxdbg log clear")
    loaded.execute("count(5).block_until_ready()")
    comm_id, text = _open_log(loaded)
    assert [line.split()[-1] for line in text.splitlines()[-5:]] == ["0", "1", "2", "3", "4"]
    pending = loaded.start("import time; time.sleep(1)")
    loaded.send_state(comm_id, {"query": "step 3"})
    loaded.wait(pending)
    update = loaded.wait_for(
        lambda m: (
            m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == comm_id
            and "rows" in m["content"]["data"].get("state", {})
        ),
        timeout=30,
    )
    state = update["content"]["data"]["state"]
    assert [row["text"] for row in state["rows"]] == ["step 3"]
    assert state["stats"]["matched"] == 1
    loaded.send_state(comm_id, {"query": ""})


def test_a_burst_of_prints_reaches_the_browser_in_few_batched_updates(loaded):
    loaded.execute("%jaxdbg log clear")
    comm_id, _ = _open_log(loaded)
    prints = 20_000
    result = loaded.execute(f"_ = count({prints}).block_until_ready()")
    updates = _updates(result.messages, comm_id)
    if not updates or _seen(updates[-1]) != prints:
        # The throttle's last flush may come just after the cell ends: wait for it, not a timer.
        last = loaded.wait_for(lambda m: [_seen(u) for u in _updates([m], comm_id)] == [prints])
        updates.append(last["content"]["data"])
    assert 1 <= len(updates) <= prints // 50
    assert updates[-1]["state"]["stats"]["seen"] == prints
    assert updates[-1]["state"]["rows"][-1]["text"] == f"step {prints - 1}"
    assert len(json.dumps(updates[-1])) < 100_000


def test_nans_on_off_reports_and_bad_use_is_one_line(loaded):
    on = loaded.execute("%jaxdbg nans on")
    assert on.stdout == "nan checks: on (jax_debug_nans=True, jax_debug_infs=True)\n"
    raised = loaded.execute("jnp.log(-1.0)")
    assert raised.error["ename"] == "FloatingPointError"
    off = loaded.execute("%jaxdbg nans off")
    assert off.stdout.startswith("nan checks: off")
    bad = loaded.execute("%jaxdbg nans sometimes")
    assert bad.error is None
    assert bad.stderr.splitlines()[0] == "%jaxdbg: nans takes one of on|off, got 'sometimes'"


def _complete(kernel, line):
    return set(kernel.complete(line)["content"]["matches"])


def test_tab_completion_offers_nans_and_log_choices(loaded):
    assert {"on", "off"} <= _complete(loaded, "%jaxdbg nans ")
    log_choices = _complete(loaded, "%jaxdbg log t")
    assert "text" in log_choices
    assert not log_choices & {"show", "clear"}


RERUN = 'jax.debug.print("once {i}", i=1)'


def test_a_cell_run_again_names_its_prints_after_each_run(loaded):
    loaded.execute("%jaxdbg log clear")
    numbers = [loaded.execute(RERUN).reply["content"]["execution_count"] for _ in range(3)]
    _, text = _open_log(loaded)
    rows = [line.split() for line in text.splitlines() if "once" in line]
    assert [(row[1], row[3]) for row in rows] == [(f"[{n}]", f"In[{n}]:1") for n in numbers], text


def test_unload_restores_the_nan_flags(loaded):
    loaded.execute("%jaxdbg nans on")
    loaded.execute("%unload_ext jaxdbg")
    check = loaded.execute("print(jax.config.jax_debug_nans, jax.config.jax_debug_infs)")
    assert check.stdout == "False False\n"

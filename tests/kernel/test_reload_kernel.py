"""A page reloaded (or a second tab opened) while a breakpoint waits gets its widgets back.

On ipykernel >= 7.4 the debugger subshell answers; on ipykernel 6 the blocked pump does.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from importlib.metadata import version
from typing import Any

import pytest
from jupyter_client import BlockingKernelClient

from tests.fixtures.kernel import Kept, KernelSession, Message, next_iopub, reply_to
from tests.kernel.test_debugger_kernel import SETUP, Debugging

pytestmark = pytest.mark.kernel

SUBSHELLS = tuple(int(part) for part in version("ipykernel").split(".")[:2]) >= (7, 4)

REPLY_SECONDS = 5.0
SLIDER = """
import ipywidgets
from IPython.display import display
slider = ipywidgets.IntSlider(value=3)
display(slider)
"""
CELLS = {
    "main thread": SLIDER + "print(jax.jit(outer)(jnp.arange(4.0)))\nprint('after the breakpoint')",
    "XLA workers": SLIDER
    + "f = jax.jit(jax.shard_map(on_worker, mesh=mesh, in_specs=P('i'), out_specs=P('i')))\n"
    + "print(float(f(sharded).sum()))\nprint('after the breakpoint')",
}
CELL = CELLS["main thread"]


class Page:
    """A second front end on the same kernel, as a reloaded page or a new tab is."""

    def __init__(self, kernel: KernelSession) -> None:
        self.client = BlockingKernelClient()  # its own session, as a new page has
        self.client.load_connection_info(kernel.manager.get_connection_info())
        self.client.start_channels()
        self._replies: Kept = {}

    def close(self) -> None:
        self.client.stop_channels()

    def reply(self, msg_id: str) -> Message:
        """The shell reply to ``msg_id``, which must come within :data:`REPLY_SECONDS`."""
        return reply_to(self.client.get_shell_msg, msg_id, REPLY_SECONDS, self._replies)

    def send(self, msg_type: str, content: dict[str, Any], **metadata: Any) -> str:
        msg = self.client.session.msg(msg_type, content, metadata=metadata)
        self.client.session.send(self.client.shell_channel.socket, msg)
        return msg["header"]["msg_id"]

    def comm_reply(self, comm_id: str, method: str) -> dict[str, Any]:
        """The data of the next ``comm_msg`` on ``comm_id`` with ``method``, within the limit."""
        return self.iopub(
            lambda m: (
                m["msg_type"] == "comm_msg"
                and m["content"]["comm_id"] == comm_id
                and m["content"]["data"].get("method") == method
            )
        )["content"]["data"]

    def iopub(self, predicate: Callable[[Message], bool]) -> Message:
        return next_iopub(self.client, predicate, REPLY_SECONDS)


@pytest.fixture
def dbg_kernel(kernel: KernelSession) -> KernelSession:
    result = kernel.execute(SETUP)
    assert result.error is None, result.error
    return kernel


@pytest.fixture
def page(dbg_kernel: KernelSession) -> Iterator[Page]:
    opened = Page(dbg_kernel)
    try:
        yield opened
    finally:
        opened.close()


def _shown(kernel: KernelSession, code: str) -> Debugging:
    """A cell stopped at a breakpoint whose widget the first page has drawn."""
    dbg = Debugging(kernel, code)
    kernel.send_custom(dbg.comm_id, {"type": "rendered"})
    return dbg


def _slider_id(dbg: Debugging) -> str:
    return next(
        m["content"]["comm_id"]
        for m in dbg.result.messages
        if m["msg_type"] == "comm_open"
        and m["content"]["data"]["state"].get("_model_name") == "IntSliderModel"
    )


@pytest.mark.parametrize("where", CELLS)
def test_reloaded_page_restores_every_widget_and_continues(dbg_kernel, page, where):
    dbg = _shown(dbg_kernel, CELLS[where])
    assert dbg.view["status"] == "waiting"

    info = page.reply(page.client.kernel_info())["content"]
    assert info["status"] == "ok"
    assert ("kernel subshells" in info.get("supported_features", [])) is SUBSHELLS

    control = str(uuid.uuid4())
    content = {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}
    page.send("comm_open", content, version="1.0.0")
    page.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    states = page.comm_reply(control, "update_states")["states"]
    assert states[dbg.comm_id]["state"]["view"]["status"] == "waiting"
    assert states[_slider_id(dbg)]["state"]["value"] == 3
    page.send("comm_close", {"comm_id": control, "data": {}})

    comms = page.reply(page.client.comm_info(target_name="jupyter.widget"))["content"]["comms"]
    assert {dbg.comm_id, _slider_id(dbg)} <= set(comms)
    page.send("comm_msg", {"comm_id": _slider_id(dbg), "data": {"method": "request_state"}})
    assert page.comm_reply(_slider_id(dbg), "update")["state"]["value"] == 3

    dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "after the breakpoint" in result.stdout, "output after the restore stays in the cell"


def test_routing_is_back_to_normal_once_the_breakpoint_ends(dbg_kernel, page):
    dbg = _shown(dbg_kernel, CELL)
    dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    assert dbg.finish().error is None

    busy = dbg_kernel.start(f"import time; time.sleep({3 * REPLY_SECONDS})")
    dbg_kernel.wait_for(
        lambda m: (
            m["msg_type"] == "status"
            and m["content"]["execution_state"] == "busy"
            and m["parent_header"].get("msg_id") == busy.msg_id
        )
    )
    with pytest.raises(TimeoutError):
        page.reply(page.client.comm_info(target_name="jupyter.widget"))
    dbg_kernel.interrupt()
    dbg_kernel.wait(busy)


AFTER = "\nprint('done', file=sys.stderr)\n'main result'"


def _restored_view(page: Page, comm_id: str) -> dict[str, Any]:
    """The debugger's view as a reloaded page gets it: through the widget control comm."""
    control = str(uuid.uuid4())
    content = {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}
    page.send("comm_open", content, version="1.0.0")
    page.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    states = page.comm_reply(control, "update_states")["states"]
    page.send("comm_close", {"comm_id": control, "data": {}})
    return states[comm_id]["state"]["view"]


@pytest.mark.parametrize("where", CELLS)
def test_after_a_reload_the_ended_widget_holds_the_rest_of_the_cell_and_its_result(
    dbg_kernel, page, where
):
    assert dbg_kernel.execute("import sys").error is None
    dbg = _shown(dbg_kernel, CELLS[where] + AFTER)
    assert "cell_output" not in _restored_view(page, dbg.comm_id)

    dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "after the breakpoint" in result.stdout and result.data("text/plain")[-1] == (
        "'main result'"
    ), "the first page still gets the cell's own output"
    assert result.stderr.endswith("done\n"), "and its last print, to stderr"

    count = result.of_type("execute_result")[0]["content"]["execution_count"]
    output = _restored_view(page, dbg.comm_id)["cell_output"]
    printed = "".join(c["text"] for c in output["chunks"] if c["kind"] == "stdout")
    assert printed == result.stdout, "every print after Continue, as the first page got them"
    assert output["chunks"][-1] == {"kind": "stderr", "text": "done\n"}
    assert output["omitted"] == 0
    assert output["result"] == {"count": count, "text": "'main result'"}


def test_without_a_reload_the_ended_widget_has_no_copy_of_the_cell(dbg_kernel, page):
    dbg = _shown(dbg_kernel, CELL + "\n'main result'")
    dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error
    assert "cell_output" not in _restored_view(page, dbg.comm_id)


def test_output_while_the_cell_still_runs_reaches_the_reloaded_page_before_it_ends(
    dbg_kernel, page
):
    dbg = _shown(dbg_kernel, CELL + "\nimport time\ntime.sleep(3)\n'main result'")
    _restored_view(page, dbg.comm_id)
    dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")

    def copied(m: Message) -> bool:
        return (
            m["msg_type"] == "comm_msg"
            and m["content"]["comm_id"] == dbg.comm_id
            and "cell_output" in m["content"]["data"].get("state", {}).get("view", {})
        )

    early = next_iopub(page.client, copied, 3 * REPLY_SECONDS)
    output = early["content"]["data"]["state"]["view"]["cell_output"]
    assert "after the breakpoint\n" in output["chunks"][0]["text"]
    assert output["result"] is None, "drawn while the cell sleeps, before its result"
    assert dbg.finish().error is None
    assert _restored_view(page, dbg.comm_id)["cell_output"]["result"]["text"] == "'main result'"

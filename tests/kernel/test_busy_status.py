"""A kernel blocked at a breakpoint reads busy, however many widget messages it serves meanwhile.

Front ends take the kernel's state from the last ``status`` message on iopub whose parent is
a message type they track (JupyterLab reads the list from jupyter_server's
``untracked_message_types``). Served widget messages end with ``idle``; the kernel must follow
each with ``busy`` for the blocked cell, and read idle once the cell ends.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.fixtures.kernel import KernelSession, Message
from tests.kernel.test_debugger_kernel import SETUP, Debugging
from tests.kernel.test_reload_kernel import CELLS, Page

pytestmark = pytest.mark.kernel

QUIET_SECONDS = 1.5
# jupyter_server's default MappingKernelManager.untracked_message_types (checked below where
# jupyter_server is installed): a status whose parent has one of these types changes nothing.
UNTRACKED = frozenset(
    {
        "comm_info_request",
        "comm_info_reply",
        "kernel_info_request",
        "kernel_info_reply",
        "shutdown_request",
        "shutdown_reply",
        "interrupt_request",
        "interrupt_reply",
        "debug_request",
        "debug_reply",
        "stream",
        "display_data",
        "update_display_data",
        "execute_input",
        "execute_result",
        "error",
        "status",
        "clear_output",
        "debug_event",
        "input_request",
        "input_reply",
    }
)


class StatusLog:
    """Every iopub status the kernel's first client reads while the log is open, in order."""

    def __init__(self, kernel: KernelSession) -> None:
        self.kernel = kernel
        self.seen: list[Message] = []
        self._keep = kernel._keep

    def __enter__(self) -> StatusLog:
        self.kernel._keep = self._record
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.kernel._keep = self._keep

    def _record(self, msg: Message) -> None:
        self._keep(msg)
        if msg["msg_type"] == "status":
            self.seen.append(msg)

    def settle(self) -> None:
        """Read iopub until nothing arrives for :data:`QUIET_SECONDS`."""
        while True:
            count = len(self.seen)
            try:
                self.kernel.wait_for(lambda msg: False, timeout=QUIET_SECONDS)
            except TimeoutError:
                if len(self.seen) == count:
                    return

    def shown(self) -> Message:
        """The last status a front end acts on."""
        tracked = [m for m in self.seen if m["parent_header"].get("msg_type") not in UNTRACKED]
        assert tracked, "no status a front end tracks was published"
        return tracked[-1]

    def assert_shows(self, state: str, msg_id: str) -> None:
        """After the kernel fell quiet, a front end reads ``state`` for request ``msg_id``."""
        self.settle()
        shown = self.shown()
        assert shown["content"]["execution_state"] == state, [
            (m["content"]["execution_state"], m["parent_header"].get("msg_type")) for m in self.seen
        ]
        assert shown["parent_header"]["msg_id"] == msg_id


@pytest.fixture(scope="module")
def dbg_kernel(shared_kernel: KernelSession) -> KernelSession:
    result = shared_kernel.execute(SETUP)
    assert result.error is None, result.error
    return shared_kernel


@pytest.fixture
def page(dbg_kernel: KernelSession) -> Iterator[Page]:
    opened = Page(dbg_kernel)
    try:
        yield opened
    finally:
        opened.close()


def test_untracked_types_are_jupyter_servers() -> None:
    kernelmanager = pytest.importorskip("jupyter_server.services.kernels.kernelmanager")
    traits = kernelmanager.MappingKernelManager.class_traits()
    assert set(traits["untracked_message_types"].default()) == UNTRACKED


@pytest.mark.parametrize("where", CELLS)
def test_blocked_cell_reads_busy_after_served_widget_messages(dbg_kernel, where):
    with StatusLog(dbg_kernel) as log:
        dbg = Debugging(dbg_kernel, CELLS[where])
        cell = dbg.result.msg_id
        dbg_kernel.send_custom(dbg.comm_id, {"type": "rendered"})
        log.assert_shows("busy", cell)
        assert dbg.command("p 1")["transcript"][-1]["output"] == "1"
        log.assert_shows("busy", cell)

        dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
        result = dbg.finish()
        assert result.error is None, result.error
        log.assert_shows("idle", cell)


def test_reloaded_page_reads_busy_while_the_breakpoint_waits(dbg_kernel, page):
    with StatusLog(dbg_kernel) as log:
        dbg = Debugging(dbg_kernel, CELLS["main thread"])
        cell = dbg.result.msg_id
        dbg_kernel.send_custom(dbg.comm_id, {"type": "rendered"})

        assert page.reply(page.client.kernel_info())["content"]["status"] == "ok"
        control = str(uuid.uuid4())
        content = {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}
        page.send("comm_open", content, version="1.0.0")
        page.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        states = page.comm_reply(control, "update_states")["states"]
        assert states[dbg.comm_id]["state"]["view"]["status"] == "waiting"
        page.send("comm_close", {"comm_id": control, "data": {}})
        log.assert_shows("busy", cell)

        dbg.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
        assert dbg.finish().error is None
        log.assert_shows("idle", cell)

"""The busy-status adapter against a stand-in kernel: held requests read busy after every idle."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from jaxdbg_widgets._kernel import busy_status


def _request(msg_id: str, msg_type: str = "execute_request") -> dict[str, Any]:
    return {"header": {"msg_id": msg_id, "msg_type": msg_type}}


class FakeKernel:
    """Records what its status publisher sends, as ``(state, parent msg_id)``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.parent = _request("current", "comm_msg")

    def _publish_status(self, status: str, channel: str, parent: Any = None) -> None:
        self.sent.append((status, (parent or self.get_parent(channel))["header"]["msg_id"]))

    def get_parent(self, channel: str = "shell") -> dict[str, Any]:
        return self.parent


def test_probe_accepts_ipykernels_publisher_and_refuses_another() -> None:
    busy_status.probe(FakeKernel())

    class Changed(FakeKernel):
        def _publish_status(self, status: str, channel: str) -> None:  # type: ignore[override]
            pass

    with pytest.raises(TypeError, match="parent"):
        busy_status.probe(Changed())


def test_every_idle_of_another_message_is_followed_by_busy_for_the_held_cell() -> None:
    kernel = FakeKernel()
    release = busy_status.hold_busy(kernel, _request("cell"))
    kernel._publish_status("busy", "shell", _request("click", "comm_msg"))
    kernel._publish_status("idle", "shell", _request("click", "comm_msg"))
    kernel._publish_status("idle", "shell")  # the parent the calling thread has
    assert kernel.sent == [
        ("busy", "click"),
        ("idle", "click"),
        ("busy", "cell"),
        ("idle", "current"),
        ("busy", "cell"),
    ]
    release()
    kernel.sent.clear()
    kernel._publish_status("idle", "shell", _request("cell"))
    assert kernel.sent == [("idle", "cell")]
    assert "_publish_status" not in vars(kernel), "the kernel's own publisher is back"


def test_the_held_cells_own_idle_gets_no_busy_after_it() -> None:
    kernel = FakeKernel()
    release = busy_status.hold_busy(kernel, _request("cell"))
    kernel._publish_status("idle", "shell", _request("cell"))
    release()
    assert kernel.sent == [("idle", "cell")]


def test_the_publisher_comes_back_when_the_last_holder_releases() -> None:
    kernel = FakeKernel()
    first = busy_status.hold_busy(kernel, _request("cell"))
    second = busy_status.hold_busy(kernel, _request("cell"))
    first()
    first()  # idempotent: it does not release the second holder's hold
    kernel._publish_status("idle", "shell", _request("click"))
    assert kernel.sent == [("idle", "click"), ("busy", "cell")]
    second()
    assert "_publish_status" not in vars(kernel)


def test_a_publisher_already_on_the_instance_is_put_back() -> None:
    kernel = FakeKernel()
    calls: list[str] = []

    def earlier(status: str, channel: str, parent: Any = None) -> None:
        calls.append(status)

    kernel._publish_status = earlier  # type: ignore[method-assign]
    busy_status.hold_busy(kernel, _request("cell"))()
    assert vars(kernel)["_publish_status"] is earlier


def test_a_release_waits_for_a_busy_being_published() -> None:
    """No busy for the cell may go out after the release: the cell's last idle follows it."""
    kernel = FakeKernel()
    entered, resume = threading.Event(), threading.Event()
    publish = kernel._publish_status

    def slow(status: str, channel: str, parent: Any = None) -> None:
        if status == "busy":
            entered.set()
            resume.wait(10)
        publish(status, channel, parent)

    kernel._publish_status = slow  # type: ignore[method-assign]
    release = busy_status.hold_busy(kernel, _request("cell"))
    served = threading.Thread(
        target=kernel._publish_status, args=("idle", "shell", _request("click"))
    )
    served.start()
    assert entered.wait(10)
    releasing = threading.Thread(target=release)
    releasing.start()
    releasing.join(0.2)
    assert releasing.is_alive(), "the release must wait for the busy in flight"
    resume.set()
    served.join(10)
    releasing.join(10)
    kernel._publish_status("idle", "shell", _request("cell"))
    assert kernel.sent[-2:] == [("busy", "cell"), ("idle", "cell")]

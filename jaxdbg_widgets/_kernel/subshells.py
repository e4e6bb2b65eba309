"""SUBSHELL tier (ipykernel >= 7.4): a kernel subshell, and one comm's messages routed to it."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import parent
from jaxdbg_widgets._undo import put_entry

T = TypeVar("T")
CREATE_SUBSHELL_TIMEOUT = 10.0
_ROUTER = "_reply_subshell_for"


def probe(kernel: Any) -> None:
    """Raise unless subshells can be made and a comm can name the one its messages go to."""
    channel_thread = kernel.shell_channel_thread
    _capabilities.require_attributes(channel_thread, ("io_loop", "manager"))
    _capabilities.require_attributes(
        channel_thread.manager,
        ("_create_subshell", "list_subshell", "get_shell_channel_to_subshell_socket"),
    )
    _capabilities.require_attributes(kernel, ("comm_manager",))
    from ipykernel.comm.comm import BaseComm

    _capabilities.require_attributes(BaseComm, (_ROUTER,))
    _capabilities.require_parameters(BaseComm._reply_subshell_for, ("data", "default"))
    parent.probe(kernel)


def on_shell_channel_thread(kernel: Any, action: Callable[[], T], timeout: float) -> T:
    """Run ``action`` on the shell-channel thread (which owns the shell stream) and wait."""
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(action())
        except BaseException as err:
            done.set_exception(err)

    kernel.shell_channel_thread.io_loop.add_callback(run)
    return done.result(timeout=timeout)


def create_subshell(kernel: Any) -> str:
    """Create a kernel subshell (on the shell-channel thread, where it must be made)."""
    manager = kernel.shell_channel_thread.manager
    return on_shell_channel_thread(kernel, manager._create_subshell, CREATE_SUBSHELL_TIMEOUT)


def subshell_exists(kernel: Any, subshell_id: str) -> bool:
    """Whether ``subshell_id`` is still one of the kernel's subshells."""
    return subshell_id in kernel.shell_channel_thread.manager.list_subshell()


def route_comm(comm: Any, subshell_id: str) -> Callable[[], None]:
    """Send ``comm``'s incoming messages to ``subshell_id``'s thread; returns the undo.

    The shell-channel thread asks each comm where a ``comm_msg`` should go; this comm answers
    with the subshell. The undo puts back exactly what the comm had before.
    """
    return put_entry(vars(comm), _ROUTER, lambda data, default: subshell_id)

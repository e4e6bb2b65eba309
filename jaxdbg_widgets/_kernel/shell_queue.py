"""PUMP tier (ipykernel 6): shell messages read from the kernel's queue by the blocked thread.

While a cell runs, ipykernel 6's main loop waits for the running handler, so nobody else reads
the shell stream. These functions move its messages out of ``msg_queue``, peek at them, run the
kernel's own handler for one, put the rest back, and wait for the next one to arrive.
"""

from __future__ import annotations

import contextvars
import inspect
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import messages, parent
from jaxdbg_widgets._kernel.messages import as_bytes


def probe(kernel: Any) -> None:
    """Raise unless ipykernel 6's queue, shell stream and session are as known."""
    if hasattr(kernel, "shell_channel_thread"):
        raise TypeError("this kernel reads its shell channel on its own thread (ipykernel 7)")
    queue = kernel.msg_queue
    _capabilities.require_attributes(queue, ("qsize", "get_nowait", "put_nowait"))
    _capabilities.require_attributes(kernel.shell_stream, ("flush", "socket"))
    _capabilities.require_attributes(kernel.session, ("feed_identities", "unpack", "deserialize"))
    messages.require_shell_handlers(kernel, messages.COMM_MESSAGES)
    _capabilities.require_parameters(kernel.session.feed_identities, ("msg_list", "copy"))
    parent.probe(kernel)


def probe_restore(kernel: Any) -> None:
    """Raise unless a reloaded page's widget requests can be handled by the pump too."""
    probe(kernel)
    _capabilities.require_parameters(kernel._publish_status, ("status", "channel", "parent"))
    messages.require_shell_handlers(kernel, messages.RESTORE_MESSAGES)


def take_shell_messages(kernel: Any) -> list[Any]:
    """Move every shell message that arrived into a list, oldest first."""
    kernel.shell_stream.flush()
    taken = []
    while kernel.msg_queue.qsize():
        taken.append(kernel.msg_queue.get_nowait())
    return taken


def put_back_shell_message(kernel: Any, entry: Any) -> None:
    """Return a taken message to the kernel's queue, for its main loop to handle later."""
    kernel.msg_queue.put_nowait(entry)


def wait_for_shell_message(kernel: Any, wake_fd: int, timeout: float | None) -> None:
    """Block until a shell message arrives, ``wake_fd`` is readable, or ``timeout`` passes."""
    import zmq

    poller = zmq.Poller()
    poller.register(kernel.shell_stream.socket, zmq.POLLIN)
    poller.register(wake_fd, zmq.POLLIN)
    poller.poll(None if timeout is None else max(0, int(timeout * 1000)))


def comm_target(kernel: Any, entry: Any) -> tuple[str, str | None]:
    """``(msg_type, comm_id)`` of a queued shell message; raises when it cannot be parsed.

    Header and content are unpacked without ``deserialize``, whose replay check would reject
    the message when the kernel later dispatches it for real.
    """
    if not entry[2]:
        return "", None  # a callback the kernel queued for itself, not a message
    session = kernel.session
    _, frames = session.feed_identities(_queued_frames(entry), copy=False)
    msg_type = session.unpack(as_bytes(frames[1])).get("msg_type")
    if msg_type not in messages.COMM_MESSAGES:
        return msg_type, None
    return msg_type, session.unpack(as_bytes(frames[4])).get("comm_id")


def queued_restore_request(kernel: Any, entry: Any, controls: set[str]) -> bool:
    """Whether a queued shell message is part of a page getting its widgets back.

    ``controls`` holds the widget control comms opened so far, as for the SUBSHELL tier.
    """
    if not entry[2]:
        return False
    session = kernel.session
    _, frames = session.feed_identities(_queued_frames(entry), copy=False)
    peek = {"header": session.unpack(as_bytes(frames[1])), "content": as_bytes(frames[4])}
    return messages.restores_widgets(session, peek, controls)


def handle_comm_message(kernel: Any, entry: Any) -> None:
    """Run the kernel's own handler for one queued message, under its parent header, and send
    its reply.

    ipykernel 6's info handlers are coroutines that await nothing; they run to their end here,
    on the blocked thread, since the kernel's event loop cannot run them now. A request gets
    the busy and idle status the kernel's dispatcher would give it: JupyterLab holds every
    other message of a new page until its kernel info request is idle (or 3 s). It runs in a
    copy of the calling thread's context: the parent header it sets (a context variable of the
    output streams on ipykernel >= 6.30) stays there, and the cell's output keeps the cell's.
    """
    contextvars.copy_context().run(_handle_in_this_context, kernel, entry)


def _handle_in_this_context(kernel: Any, entry: Any) -> None:
    session = kernel.session
    idents, frames = session.feed_identities(_queued_frames(entry), copy=False)
    msg = session.deserialize(frames, content=True, copy=False)
    kernel.set_parent(idents, msg, "shell")
    msg_type = msg["header"]["msg_type"]
    answered = msg_type.endswith("_request")  # its sender waits for its idle status too
    if answered:
        kernel._publish_status("busy", "shell", msg)
    try:
        result = kernel.shell_handlers[msg_type](kernel.shell_stream, idents, msg)
        if inspect.isawaitable(result):
            finish_now(result)
    finally:
        if answered:
            kernel._publish_status("idle", "shell", msg)
        _send_replies(kernel)


def _send_replies(kernel: Any) -> None:
    """Send the replies a handler queued on the shell stream: its event loop, which would send
    them, is blocked (ipykernel's dispatcher flushes them the same way)."""
    import zmq

    kernel.shell_stream.flush(zmq.POLLOUT)


def finish_now(awaitable: Any) -> None:
    """Run a coroutine that never waits to its end; raise if it does wait."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration:
        return
    steps.close()
    raise RuntimeError("a shell handler waited on the kernel's blocked event loop")


def _queued_frames(entry: Any) -> Any:
    """The wire frames of a ``msg_queue`` entry ``(index, dispatch, (frames,))``."""
    return entry[2][0]

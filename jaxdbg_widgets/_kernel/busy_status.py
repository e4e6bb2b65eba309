"""The kernel reads busy while a breakpoint blocks a request, whatever else it serves meanwhile.

Each widget message served at a breakpoint ends with an ``idle`` status on iopub whose parent
is that message; front ends (JupyterLab, Notebook 7, jupyter_server's activity record) take it
as the whole kernel's state. While a request is held, the kernel's status publisher follows
every ``idle`` of another message with a ``busy`` whose parent is the held request, from the
same thread, so the last status a front end acts on says busy until the request really ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._undo import once, put_entry

_PUBLISHER = "_publish_status"


def probe(kernel: Any) -> None:
    """Raise unless the kernel publishes status through ``_publish_status(status, channel,
    parent)`` looked up on the instance."""
    _capabilities.require_attributes(kernel, (_PUBLISHER, "get_parent"))
    _capabilities.require_parameters(kernel._publish_status, ("status", "channel", "parent"))


class _Held:
    """The requests held at breakpoints in one kernel, and the publisher wrapper while any is."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.lock = threading.Lock()
        self.requests: dict[str, tuple[dict[str, Any], int]] = {}
        self.unwrap: Callable[[], None] | None = None  # puts back what the wrapper replaced

    def hold(self, request: dict[str, Any]) -> None:
        msg_id = _msg_id(request)
        with self.lock:
            message, count = self.requests.get(msg_id, (request, 0))
            self.requests[msg_id] = (message, count + 1)
            if self.unwrap is None:
                publish = self._publisher(getattr(self.kernel, _PUBLISHER))
                self.unwrap = put_entry(vars(self.kernel), _PUBLISHER, publish)

    def release(self, request: dict[str, Any]) -> bool:
        """Count one holder fewer; whether no request is held any more."""
        msg_id = _msg_id(request)
        with self.lock:
            message, count = self.requests.pop(msg_id, (request, 0))
            if count > 1:
                self.requests[msg_id] = (message, count - 1)
            if self.requests:
                return False
            if self.unwrap is not None:
                self.unwrap()
                self.unwrap = None
            return True

    def _publisher(self, publish: Callable[..., Any]) -> Callable[..., Any]:
        def publish_then_busy(status: str, channel: str, parent: Any = None) -> Any:
            result = publish(status, channel, parent)
            if status == "idle":
                self._republish(publish, parent or self.kernel.get_parent(channel))
            return result

        return publish_then_busy

    def _republish(self, publish: Callable[..., Any], ended: Any) -> None:
        """``busy`` for every held request, unless the idle was one of theirs."""
        ended_id = _msg_id(ended) if isinstance(ended, dict) else None
        with self.lock:  # a release waits: no busy goes out after its request's last idle
            for msg_id, (request, _) in self.requests.items():
                if msg_id != ended_id:
                    publish("busy", "shell", request)


_lock = threading.Lock()
_kernels: dict[int, _Held] = {}


def hold_busy(kernel: Any, request: dict[str, Any]) -> Callable[[], None]:
    """Keep ``kernel`` reading busy for ``request`` until the returned release is called.

    Several holders may hold the same or different requests; the kernel's own publisher is
    back once the last one releases. The release is idempotent.
    """
    with _lock:
        held = _kernels.setdefault(id(kernel), _Held(kernel))
        held.hold(request)

    def release() -> None:
        with _lock:
            if held.release(request):
                _kernels.pop(id(kernel), None)

    return once(release)


def _msg_id(message: dict[str, Any]) -> str:
    return str(message.get("header", {}).get("msg_id"))

"""Ended sessions' widgets stay open, frozen, so a page reloaded while the kernel lives draws
their transcript instead of an empty output.

Once a session ends, the backend replaces its output through the display id; a page reloaded
before that no longer tracks the display id, so only the widget's model can reach it. Keeping
the model (its view frozen: every control is off once the status is not "waiting") lets that
page draw the final transcript. The oldest beyond ``KEEP`` are closed.

Such a page shows none of the cell's later output either, since a front end shows only the
output of the requests it sent. So when a page got its widgets back while the session waited,
the rest of the cell's output is copied into the ended widget's ``cell_output`` until the cell
finishes (:mod:`.cell_tail`); the first page, whose output now is the static transcript, shows
that output itself and no widget view, so nothing shows twice.
"""

from __future__ import annotations

import collections
import logging
import threading
from dataclasses import dataclass
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import cell_output, messages, parent
from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.debugger.widget import cell_tail

KEEP = 32
PUSH_DELAY = 0.5
"""Seconds between redraws of the copied output while the cell still runs."""

_lock = threading.Lock()
_kept: collections.deque[Any] = collections.deque()
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mark:
    """Taken when a session starts: how many pages had got their widgets back, and the cell's
    request. The request is read then, because by the session's end a reloaded page's own
    messages may have become the parent that threads without one (XLA's workers) read."""

    pages: int
    request: str | None


def reload_mark() -> Mark:
    """A mark to take when a session starts: :func:`keep` tells from it whether a page got its
    widgets back meanwhile, and which cell's output to copy then."""
    kernel = running_kernel()
    request = None if kernel is None else parent.request_id(kernel)
    return Mark(messages.pages_restored(), request)


def keep(widget: Any, mark: Mark | None = None) -> None:
    """Keep ``widget`` open, closing the oldest kept widgets past ``KEEP``; when a page got its
    widgets back since ``mark``, copy the rest of the cell's output into its view."""
    with _lock:
        _kept.append(widget)
        evicted = [_kept.popleft() for _ in range(max(0, len(_kept) - KEEP))]
    for old in evicted:
        old.close()
    if mark is not None and messages.pages_restored() != mark.pages:
        follow_cell(widget, mark.request)


def kept() -> list[Any]:
    """The widgets kept open, oldest first."""
    with _lock:
        return list(_kept)


def follow_cell(widget: Any, request: str | None = None) -> bool:
    """Copy the later output of the cell ``request`` (by default the one running now) into
    ``widget.view["cell_output"]`` until the cell finishes; whether it does (not outside a
    cell, nor where the kernel check failed)."""
    kernel = running_kernel()
    if kernel is None or not _capabilities.has("ipykernel", "cell-output"):
        return False
    tail = cell_tail.CellTail()
    redraw = _Redraw(widget, tail)

    def on_message(msg_type: str, content: dict[str, Any]) -> None:
        if cell_tail.from_message(tail, msg_type, content):
            redraw.soon()

    try:
        cell_output.follow_cell(kernel, on_message, redraw.last, request)
    except LookupError:
        return False
    return True


class _Redraw:
    """Sends the copied output to the widget at most every :data:`PUSH_DELAY` seconds, and once
    more when the cell finishes; nothing after that. Sends take turns, so a timer's copy taken
    before the cell's last output never lands after the final one."""

    def __init__(self, widget: Any, tail: cell_tail.CellTail) -> None:
        self._widget, self._tail = widget, tail
        self._final = dict(widget.view)
        self._lock = threading.Lock()
        self._sending = threading.Lock()
        self._timer: threading.Timer | None = None
        self._done = False

    def soon(self) -> None:
        with self._lock:
            if self._done or self._timer is not None:
                return
            self._timer = threading.Timer(PUSH_DELAY, self._push)
            self._timer.daemon = True
            self._timer.start()

    def last(self) -> None:
        with self._lock:
            self._done = True
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        self._send(closing=True)

    def _push(self) -> None:
        with self._lock:
            self._timer = None
        self._send(closing=False)

    def _send(self, closing: bool) -> None:
        """Copy the output into the view; once the cell finished, only the final copy."""
        with self._sending:
            if self._done and not closing:
                return
            try:
                self._widget.view = {**self._final, "cell_output": self._tail.to_json()}
            except Exception:
                _log.warning(
                    "jaxdbg: the ended debugger could not show the cell's output", exc_info=True
                )

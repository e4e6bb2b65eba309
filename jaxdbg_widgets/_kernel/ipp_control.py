"""One request on an ipyparallel engine's control channel, sent from the notebook's client.

ipyparallel's ``Client`` sends its own control requests (abort, clear, signal) through
``_send_control_request`` and hands back a future of the engines' replies; the same method
carries the debugger's requests to engines whose shell is busy running a ``%%px`` cell.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets import _capabilities

LIBRARY = "ipyparallel"
NAME = "control-request"
FEATURE = "breakpoints on ipyparallel engines answered from the notebook"


def probe(client: Any) -> None:
    """Raise unless the client sends control requests as this module calls them."""
    _capabilities.require_attributes(type(client), ("_send_control_request",))
    _capabilities.require_parameters(
        type(client)._send_control_request, ("targets", "msg_type", "content", "block")
    )


def send(client: Any, engine_id: int, request_type: str, content: dict[str, Any]) -> Any:
    """Send ``content`` to engine ``engine_id``; a future of the list of its reply messages.

    The future resolves only when the engine answers: a dead engine's never does.
    """
    return client._send_control_request(
        targets=[engine_id], msg_type=request_type, content=content, block=False
    )

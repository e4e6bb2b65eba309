"""Messages a front end sends to a session (``model.send(...)`` in the widget), and their effect.

``{"type": "command", "line": "p x"}`` runs a jdb command, and every button that has a typed
twin sends it so (Continue sends ``c``, Continue this device ``c 3``), so the transcript shows
what a user could type. The rest are navigation with no typed twin: ``{"type": "frame",
"index": 2}`` selects a frame; ``{"type": "batch", "index": 1}`` a ``vmap`` element;
``{"type": "internal", "show": true}`` shows internal frames. A shard session also takes
``{"type": "device", "index": 3}`` (select a shard) and ``{"type": "compare", "expression":
"y"}``; so does the session of every process of a job, whose index runs over the hits of every
process. Picking a frame, an element or a device stays out of the transcript; a compare keeps
only its verdict there, since the view shows its table. Anything else is reported in the
transcript as an error; it never ends the session. The messages are declared once, as
:data:`jaxdbg_widgets.debugger.schema.DebuggerMessage`, which ``js/schema/debugger.js`` is
generated from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from jaxdbg_widgets.debugger.session.base import Served, ServedHits
from jaxdbg_widgets.debugger.session.values import short_repr


def apply_message(session: Served, content: Any) -> None:
    """Apply one front-end message to ``session``; bad messages become transcript errors."""
    try:
        _apply(session, content)
    except (TypeError, ValueError, KeyError) as err:
        session.note(_action(content), f"*** {err}", error=True)


def _action(content: Any) -> str:
    """The failed message as the user's action: ``b 7`` for a batch pick, else the message."""
    if isinstance(content, dict) and content.get("type") in _ACTIONS:
        return f"{_ACTIONS[content['type']]} {short_repr(content.get('index'))}"
    return f"<message {short_repr(content)}>"


_ACTIONS = {"batch": "b", "frame": "frame", "device": "dev"}


def _apply(session: Served, content: Any) -> None:
    if not isinstance(content, dict):
        raise TypeError("a debugger message must be an object with a 'type'")
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in session.messages:
        raise ValueError(f"unknown debugger message type {kind!r}")
    if kind in _HIT_HANDLERS:
        _HIT_HANDLERS[kind](cast("ServedHits", session), content)
    else:
        _HANDLERS[kind](session, content)


def _command(session: Served, content: dict[str, Any]) -> None:
    line = content.get("line")
    if not isinstance(line, str):
        raise TypeError("a command message needs a string 'line'")
    session.run(line)


_HANDLERS: dict[str, Callable[[Served, dict[str, Any]], object]] = {
    "command": _command,
    "frame": lambda session, content: session.select_frame(_index(content)),
    "batch": lambda session, content: session.select_batch(_index(content)),
    "internal": lambda session, content: session.set_show_internal(bool(content.get("show"))),
}
"""What every session takes, by message type."""

_HIT_HANDLERS: dict[str, Callable[[ServedHits, dict[str, Any]], object]] = {
    "device": lambda session, content: session.select_device(_index(content)),
    "compare": lambda session, content: session.compare_in_view(_expression(content)),
}
"""What only a session over several hits takes (a :class:`~.base.ServedHits`, whose
``messages`` name these types)."""


def _expression(content: dict[str, Any]) -> str:
    expression = content.get("expression")
    if not isinstance(expression, str):
        raise TypeError("a compare message needs a string 'expression'")
    return expression


def _index(content: dict[str, Any]) -> int:
    index = content.get("index")
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("'index' must be an integer")
    return index

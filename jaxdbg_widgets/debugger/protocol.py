"""Messages a front end sends to a session (``model.send(...)`` in the widget), and their effect.

``{"type": "command", "line": "p x"}`` runs a jdb command; ``{"type": "frame", "index": 2}``
selects a frame; ``{"type": "batch", "index": 1}`` selects a ``vmap`` element;
``{"type": "internal", "show": true}`` shows internal frames. A shard session also takes
``{"type": "device", "index": 3}`` (select a shard), ``{"type": "compare", "expression": "y"}``
and ``{"type": "continue", "index": 3}`` (release that shard alone). Anything else is reported in the
transcript as an error; it never ends the session.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.debugger.session import Session
from jaxdbg_widgets.debugger.shard_session import ShardSession
from jaxdbg_widgets.debugger.values import short_repr


def apply_message(session: Session | ShardSession, content: Any) -> None:
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


_ACTIONS = {"batch": "b", "frame": "frame", "device": "dev", "continue": "c"}


def _apply(session: Session | ShardSession, content: Any) -> None:
    if not isinstance(content, dict):
        raise TypeError("a debugger message must be an object with a 'type'")
    kind = content.get("type")
    if kind == "command":
        line = content.get("line")
        if not isinstance(line, str):
            raise TypeError("a command message needs a string 'line'")
        session.run(line)
    elif kind == "frame":
        session.select_frame(_index(content))
    elif kind == "batch":
        session.select_batch(_index(content))
    elif kind == "internal":
        session.set_show_internal(bool(content.get("show")))
    elif kind in ("device", "continue", "compare") and isinstance(session, ShardSession):
        session.run(_shard_command(kind, content))
    else:
        raise ValueError(f"unknown debugger message type {kind!r}")


def _shard_command(kind: str, content: dict[str, Any]) -> str:
    """The typed command a shard click stands for, so the transcript shows the user's action."""
    if kind == "compare":
        expression = content.get("expression")
        if not isinstance(expression, str):
            raise TypeError("a compare message needs a string 'expression'")
        return f"compare {expression}"
    return f"{_ACTIONS[kind]} {_index(content)}"


def _index(content: dict[str, Any]) -> int:
    index = content.get("index")
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("'index' must be an integer")
    return index

"""The one table of debugger commands: their names, usage and help, and the session kinds that
take them. Every session dispatches on :func:`key_of` and every ``help`` reads :data:`TABLE`,
which is ``js/debugger_commands.js``, the module the widget draws its buttons and keys from, so
a command is spelled in that one file."""

from __future__ import annotations

import json
from dataclasses import dataclass

from jaxdbg_widgets._assets import asset

HIT, SHARDS, JOB = "hit", "shards", "job"
"""The session kinds: one breakpoint hit, the shards of a run, the hits of every process."""
EVERY = (HIT, SHARDS, JOB)


@dataclass(frozen=True)
class Command:
    """One command: what it answers to, its usage and summary, and where else it shows."""

    key: str
    names: tuple[str, ...]
    usage: str
    summary: str
    kinds: tuple[str, ...] = EVERY
    own_usage: str | None = None
    """Its usage in the ``help`` of a shard or job session, which lists its own commands."""
    own_help: dict[str, str] | None = None
    """Its summary there, per session kind."""


def _read_table() -> tuple[Command, ...]:
    """The commands as ``js/debugger_commands.js`` declares them (JSON after ``export default``)."""
    source = asset(TABLE_FILE).read_text(encoding="utf-8")
    rows = json.loads(source.partition("\nexport default")[2].strip().rstrip(";"))
    return tuple(
        Command(
            key=row["key"],
            names=tuple(row["names"]),
            usage=row["usage"],
            summary=row["summary"],
            kinds=tuple(row["kinds"]),
            own_usage=row.get("own_usage"),
            own_help=row.get("own_help"),
        )
        for row in rows
    )


TABLE_FILE = "debugger_commands.js"
TABLE = _read_table()
_OWN_ORDER = {
    SHARDS: ("device", "compare", "continue"),
    JOB: ("process", "device", "compare", "continue", "continue_process"),
}
"""The order a shard or job ``help`` lists its own commands in."""
_BY_KEY = {command.key: command for command in TABLE}


_BY_NAME = {name: command for command in TABLE for name in command.names}


def key_of(name: str, kind: str) -> str | None:
    """The command a session of ``kind`` runs for the typed name ``name``; ``None`` if none."""
    command = _BY_NAME.get(name)
    return command.key if command is not None and kind in command.kinds else None


def find(name: str) -> Command | None:
    """The command ``name`` answers to, whichever session takes it."""
    return _BY_NAME.get(name)


def hit_commands() -> list[Command]:
    """The commands of one hit, in the order ``help`` lists them."""
    return [command for command in TABLE if HIT in command.kinds]


def extra_help(kind: str) -> str:
    """The lines a shard or job session adds to ``help``: its own commands, aligned."""
    rows = [
        (_BY_KEY[key].own_usage or "", (_BY_KEY[key].own_help or {})[kind])
        for key in _OWN_ORDER[kind]
    ]
    width = max(len(usage) for usage, _ in rows)
    return "\n".join(f"  {usage.ljust(width)}  {summary}" for usage, summary in rows)

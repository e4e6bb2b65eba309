"""The one table of debugger commands: their names, usage and help, and the session kinds that
take them. Every session dispatches on :func:`key_of` and every ``help`` reads :data:`TABLE`,
so a command's names are spelled here only."""

from __future__ import annotations

from dataclasses import dataclass

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


TABLE: tuple[Command, ...] = (
    Command("help", ("help", "h"), "h(elp) [command]", "list the commands, or describe one"),
    Command("p", ("p",), "p expression", "evaluate and print the repr of an expression"),
    Command("pp", ("pp",), "pp expression", "evaluate and pretty-print an expression"),
    Command(
        "up",
        ("up", "u"),
        "u(p)",
        "move up a stack frame (towards the caller)",
    ),
    Command(
        "down",
        ("down", "d"),
        "d(own)",
        "move down a stack frame",
    ),
    Command(
        "where",
        ("where", "w", "bt"),
        "w(here), bt",
        "print a stack trace, most recent frame last",
    ),
    Command("list", ("list", "l"), "l(ist)", "list source around the current line"),
    Command(
        "batch",
        ("batch", "b"),
        "b(atch) [index]",
        "show or select the vmap element every value comes from",
    ),
    Command(
        "continue",
        ("continue", "c", "cont"),
        "c(ont(inue))",
        "continue the program's execution",
        own_usage="c [N]",
        own_help={
            SHARDS: "continue every shard, or only shard N",
            JOB: "continue every hit of every process, or only hit N",
        },
    ),
    Command(
        "continue_all",
        ("continue_all", "ca"),
        "ca, continue_all",
        "continue and skip the remaining breakpoints of this run",
    ),
    Command(
        "quit",
        ("quit", "q", "exit", "EOF"),
        "q(uit), exit",
        "quit the debugger and stop the computation",
    ),
    Command(
        "process",
        ("proc", "process"),
        "proc [N]",
        "list the processes, or show process N's first waiting hit",
        kinds=(JOB,),
        own_usage="proc [N]",
        own_help={JOB: "list the processes, or show process N's first waiting hit"},
    ),
    Command(
        "device",
        ("dev", "device"),
        "dev [N|name]",
        "list the hits, or show one",
        kinds=(SHARDS, JOB),
        own_usage="dev [N|name]",
        own_help={
            SHARDS: "list the gathered shards, or select shard N (or a device by name)",
            JOB: "list every hit of every process, or show hit N",
        },
    ),
    Command(
        "compare",
        ("compare", "cmp"),
        "compare expr",
        "evaluate expr in every hit",
        kinds=(SHARDS, JOB),
        own_usage="compare expr",
        own_help={
            SHARDS: "evaluate expr in every gathered shard; differing shards are marked",
            JOB: "evaluate expr in every hit of every process, in one table",
        },
    ),
    Command(
        "continue_process",
        ("cp", "continue_process"),
        "cp N",
        "continue every hit of process N",
        kinds=(JOB,),
        own_usage="cp N",
        own_help={JOB: "continue every hit of process N"},
    ),
)
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

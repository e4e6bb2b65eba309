"""The shard session's own commands and the text they print.

``dev [N|name]`` lists the gathered shards or shows one, ``compare EXPR`` tabulates one value
across them, ``c [N]`` continues every shard or one, ``ca`` and ``q`` end them all; any other
line is run in the shown shard's session, whose ``help`` gains the shard commands.
"""

from __future__ import annotations

from typing import Protocol

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session import commands
from jaxdbg_widgets.debugger.session.base import Entry, Resume
from jaxdbg_widgets.debugger.session.shard_compare import CompareRow, compare_text
from jaxdbg_widgets.debugger.session.shard_gathering import Gathering, Hit, release
from jaxdbg_widgets.debugger.session.shard_selection import Selection


class ShardSession(Protocol):
    """What the commands use of the shard session (which imports them to dispatch)."""

    gathering: Gathering
    selection: Selection

    def compare(self, expression: str) -> list[CompareRow]: ...

    def forget_compared(self, hit: Hit) -> None: ...

    def shard_index(self, shard: ShardPlace) -> int: ...


STATE_TEXT = {
    Resume.CONTINUE: "continued",
    Resume.CONTINUE_ALL: "continued, rest skipped",
    Resume.QUIT: "quit",
}
"""A released shard's state, in the words the device selector uses."""


def dispatch(shards: ShardSession, line: str, name: str, arg: str) -> Entry | str:
    """Run one command line; the caller holds the gathering's lock."""
    key = commands.key_of(name, commands.SHARDS)
    if key == "device":
        return _device(shards, arg)
    if key == "compare":
        return compare_text(arg, shards.compare(arg))
    if key == "continue":
        return _continue(shards, arg)
    if key == "continue_all":
        shards.gathering.finish(Resume.CONTINUE_ALL)
        return "Continuing every shard; skipping the remaining breakpoints of this run."
    if key == "quit":
        shards.gathering.finish(Resume.QUIT)
        return "Quitting: every shard of the run is stopped."
    hit = shards.selection.current()
    if hit.resume is not None:
        raise ValueError(f"{hit.shard.label} has continued; select a waiting shard with dev N")
    entry = hit.session.run(line)
    if key == "help" and not arg:
        extra = commands.extra_help(commands.SHARDS)
        return Entry(line, f"{entry.output}\nShard commands:\n{extra}")
    return entry


def _which(arg: str) -> int | str:
    return int(arg) if arg.isdigit() else arg


def _device(shards: ShardSession, arg: str) -> str:
    if arg:
        hit = shards.selection.pick(_which(arg))
        return f"{describe(shards, hit)}\n{hit.session.context()}"
    lines = [summary(shards)]
    for n, hit in enumerate(shards.gathering.hits):
        mark = ">" if hit is shards.selection.hit else " "
        lines.append(f"{mark} {n:>3}  {describe(shards, hit)}")
    return "\n".join(lines)


def _continue(shards: ShardSession, arg: str) -> str:
    gathering = shards.gathering
    if not arg:
        gathering.finish(Resume.CONTINUE)
        return "Continuing every shard."
    hit = shards.selection.find(_which(arg))
    if hit.resume is not None:
        raise ValueError(f"{hit.shard.label} has already continued")
    release(hit, Resume.CONTINUE)
    shards.forget_compared(hit)
    if gathering.complete and not gathering.waiting:
        gathering.finish(Resume.CONTINUE)
        return f"Continuing {hit.shard.label}; every shard has continued."
    shards.selection.after_release(hit)
    return f"Continuing {hit.shard.label}; {gathering.waiting} still waiting."


def describe(shards: ShardSession, hit: Hit) -> str:
    """``CPU 3, x=3, shard 3 (waiting)``: one shard's line in the ``dev`` listing."""
    state = "waiting" if hit.resume is None else STATE_TEXT[hit.resume]
    where = hit.shard.where
    parts = [hit.shard.device or where or hit.shard.label]
    if hit.shard.device and where:
        parts.append(where)
    parts.append(f"shard {shards.shard_index(hit.shard)}")
    if hit.shard.element is not None:
        parts.append(f"vmap element {hit.shard.element}")
    return f"{', '.join(parts)} ({state})"


def summary(shards: ShardSession) -> str:
    """``8 of 8 shards gathered, 8 waiting``."""
    gathering = shards.gathering
    of = f" of {gathering.expected}" if gathering.expected else ""
    return f"{gathering.arrived}{of} shards gathered, {gathering.waiting} waiting"

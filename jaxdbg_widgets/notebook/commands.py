"""The ``%jaxdbg`` subcommands: a table of names, usages and handlers the magic dispatches to."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jaxdbg_widgets.comms import command as comms_command
from jaxdbg_widgets.compiles import command as compiles_command
from jaxdbg_widgets.debugger.serve import headless, scripts
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.memory import command as memory_command
from jaxdbg_widgets.memory import peak_command
from jaxdbg_widgets.notebook import nans, session_log
from jaxdbg_widgets.notebook.status import collect_status, format_status


class UsageError(Exception):
    """Wrong use of ``%jaxdbg``; shown as one line plus the usage, never as a traceback."""


@dataclass(frozen=True)
class Subcommand:
    """One ``%jaxdbg NAME ...`` entry: its handler gets the words after the name."""

    name: str
    usage: str
    summary: str
    run: Callable[[list[str]], None]
    choices: Sequence[str] = field(default_factory=list)
    misuse: tuple[type[Exception], ...] = (ValueError,)
    """The errors its handler raises for words it cannot use: shown as a usage error."""


def _status(args: list[str]) -> None:
    if args:
        raise UsageError("status takes no arguments")
    print(format_status(collect_status()))


def _help(args: list[str]) -> None:
    if args:
        raise UsageError("help takes no arguments")
    print(help_text())


def _headless(args: list[str]) -> None:
    if not args:
        print(_policy_line(headless.current_policy()))
        return
    if len(args) != 1:
        raise UsageError("headless takes one policy")
    policy = headless.parse_policy(args[0])
    headless.set_policy(policy)
    print(_policy_line(policy))


def _policy_line(policy: headless.HeadlessPolicy) -> str:
    """``headless policy: continue`` and whether it applies to the cell running now, so a cell
    that says "continue" and then waits for a click does not seem to contradict itself."""
    if capability.detect_tier() is capability.Tier.HEADLESS:
        return f"headless policy: {policy.value} (applies now: no front end can answer here)"
    return f"headless policy: {policy.value} (not now: a breakpoint here waits for your answer)"


def _script(args: list[str]) -> None:
    if not args:
        queued = scripts.queued()
        print("script: " + ("; ".join(queued.remaining) if queued else "nothing queued"))
        return
    if args == ["off"]:
        scripts.clear_queue()
        print("script: cleared")
        return
    commands = scripts.parse_commands(" ".join(args))
    if not commands:
        raise UsageError("script needs jdb commands separated by ';'")
    queued = scripts.queue(commands)
    print(f"script: {len(queued.remaining)} command(s) queued for the next breakpoints")


def _cluster(args: list[str]) -> None:
    from IPython import get_ipython

    from jaxdbg_widgets.multiprocess import command as cluster_command

    ip = get_ipython()
    cluster_command.run(args, ip.user_ns if ip is not None else {})


COMMANDS: dict[str, Subcommand] = {
    cmd.name: cmd
    for cmd in [
        Subcommand(
            "status", "%jaxdbg status", "versions, devices, debugger backend, transport", _status
        ),
        Subcommand("help", "%jaxdbg help", "list the subcommands", _help),
        Subcommand(
            "headless",
            "%jaxdbg headless [continue|raise|script]",
            "what a breakpoint does when no front end can answer",
            _headless,
            choices=[p.value for p in headless.HeadlessPolicy],
        ),
        Subcommand(
            "script",
            "%jaxdbg script [CMD; CMD; ...|off]",
            "answer the next breakpoints with these jdb commands",
            _script,
            choices=["off"],
        ),
        Subcommand(
            "nans",
            "%jaxdbg nans [on|off]",
            "JAX's jax_debug_nans and jax_debug_infs checks",
            nans.run,
            choices=list(nans.CHOICES),
        ),
        Subcommand(
            "log",
            "%jaxdbg log [show|text|clear]",
            "the print log: every print with call site, cell, time and values",
            session_log.run,
            choices=list(session_log.LOG_ACTIONS),
            misuse=(ValueError, RuntimeError),
        ),
        Subcommand(
            "memory",
            "%jaxdbg memory [EXPR]",
            "bytes per device and per leaf of EXPR (default: every live array)",
            memory_command.show,
            choices=memory_command.namespace_names(),
        ),
        Subcommand(
            "peak",
            "%jaxdbg peak CALL",
            "what is live at the peak of CALL (e.g. step(params, batch)), by line, before it runs",
            peak_command.show,
            choices=comms_command.callable_names(),
        ),
        Subcommand(
            "cluster",
            "%jaxdbg cluster N [DEVICES|none] | memory [EXPR] | sharding EXPR | compiles",
            "N ipyparallel engines joined into one JAX job, as rc (jaxdbg_widgets.cluster); "
            "memory: one map of EXPR (default: live arrays) on every process; sharding: "
            "a global array's sharding; compiles: every process's compiles in one report",
            _cluster,
            misuse=(ValueError, ImportError),
        ),
        Subcommand(
            "comms",
            "%jaxdbg comms CALL",
            "the collectives XLA chose for CALL (e.g. step(params, batch)), per line and device",
            comms_command.show,
            choices=comms_command.callable_names(),
        ),
        Subcommand(
            "compiles",
            "%jaxdbg compiles [clear]",
            "every trace and compile since the extension loaded: call site, seconds, cause",
            compiles_command.show,
            choices=list(compiles_command.ACTIONS),
        ),
    ]
}


HELP_WIDTH = 88
"""The widest line of ``%jaxdbg help``: front ends wrap longer output lines in mid-word."""
_USAGE_COLUMN = 36
"""Usages up to this long share a line with their summary; longer ones stand on their own."""


def help_text() -> str:
    """Each subcommand's usage and what it does, in lines of at most ``HELP_WIDTH`` characters
    broken between words; a long usage stands on its own line above its summary."""
    short = [len(cmd.usage) for cmd in COMMANDS.values() if len(cmd.usage) <= _USAGE_COLUMN]
    column = max(short, default=0) + 2
    return "\n".join(_help_entry(cmd, column) for cmd in COMMANDS.values())


def _help_entry(cmd: Subcommand, column: int) -> str:
    """One subcommand's help: the usage, then the summary wrapped between words at ``column``."""
    indent = " " * column
    summary = textwrap.wrap(
        cmd.summary, HELP_WIDTH - column, break_long_words=False, break_on_hyphens=False
    ) or [""]
    if len(cmd.usage) < column:
        lines = [cmd.usage.ljust(column) + summary[0], *(indent + s for s in summary[1:])]
    else:
        lines = [cmd.usage, *(indent + s for s in summary)]
    return "\n".join(lines)


def run(line: str) -> None:
    """Dispatch one ``%jaxdbg`` line; raises :class:`UsageError` for wrong use."""
    words = line.split()
    if not words:
        raise UsageError("a subcommand is needed")
    name, *args = words
    command = COMMANDS.get(name)
    if command is None:
        raise UsageError(f"unknown subcommand {name!r}")
    try:
        command.run(args)
    except command.misuse as err:
        raise UsageError(str(err)) from None


def complete(line_before_cursor: str) -> list[str]:
    """Completions for the word under the cursor in ``%jaxdbg ...``."""
    words = line_before_cursor.split()
    ends_with_space = line_before_cursor.endswith(" ")
    typed = words[1:] if words and words[0].lstrip("%") == "jaxdbg" else words
    if not typed or (len(typed) == 1 and not ends_with_space):
        prefix = typed[0] if typed else ""
        return [name for name in COMMANDS if name.startswith(prefix)]
    command = COMMANDS.get(typed[0])
    if command is None:
        return []
    prefix = "" if ends_with_space else typed[-1]
    return [choice for choice in command.choices if choice.startswith(prefix)]

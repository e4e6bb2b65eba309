"""The front-end-neutral debugger session: frames, the selected frame, jdb commands and their output.

Commands keep the meaning they have in JAX's CLI debugger (``jax._src.debugger.cli_debugger``):
frame 0 is where the breakpoint is, ``up`` moves towards callers, a line that is not a
command is evaluated. A session only ever produces strings, so the widget, the terminal and
scripted runs all read the same transcript.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import CodeType
from typing import Any

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session import commands
from jaxdbg_widgets.debugger.session.base import (
    HIT_MESSAGES,
    CommandLog,
    Entry,
    Hit,
    Resume,
    place_of,
)
from jaxdbg_widgets.debugger.session.frame_view import FrameView, view_frame
from jaxdbg_widgets.debugger.session.values import describe_error, is_array, safe_repr
from jaxdbg_widgets.debugger.session.workers import thread_name
from jaxdbg_widgets.debugger.transports import interrupts

STOPPED_SHOWN = 12
_EVALUATION_ERRORS = BaseException
"""What an evaluated line may raise and the session shows as an error: even ``SystemExit`` or
an interrupt inside ``p`` ends the expression, never the session and its transcript."""


class Session(CommandLog):
    """One breakpoint hit: the frames it captured and everything the user did there."""

    view_kind = commands.HIT
    messages = HIT_MESSAGES
    version = 0
    """One hit changes only through its own messages, never on another thread."""
    changed = None

    def __init__(
        self,
        frames: Sequence[Any],
        *,
        thread_id: int | None = None,
        batch_size: int | None = None,
        batch_indices: Sequence[int] | None = None,
        batch_total: int | None = None,
        device: str | None = None,
        shard: ShardPlace | None = None,
        hit: int = 1,
        stop: str | None = None,
        show_internal: bool = False,
        history: Sequence[str] = (),
    ) -> None:
        self._frames: list[FrameView] = [view_frame(f) for f in frames]
        self.thread_id = thread_id
        self.batch_size = batch_size if batch_size and batch_size > 0 else None
        self.batch_index = 0
        self.batch_indices = list(batch_indices) if batch_indices is not None else None
        self.batch_total = batch_total if batch_total else self.batch_size
        """How many elements the whole ``vmap`` batch has (more than ``batch_size`` when a
        ``breakpoint_if`` held only at ``batch_indices``)."""
        self.shard = shard
        """Where the hit ran, as data (mesh position, device, ``vmap`` element), when known."""
        self.device = device if device is not None or shard is None else shard.label
        self.hit = hit
        self.stop = stop or f"breakpoint #{hit}"
        """What stopped here, as the header names it: ``breakpoint #2``, ``post-mortem``."""
        self.show_internal = show_internal
        self.location = self._frames[0].label if self._frames else "<no frames>"
        self.selected = 0
        self.resume = None
        super().__init__(history)

    @property
    def frames(self) -> list[FrameView]:
        """The frames shown: user frames only unless internal ones are asked for (or all are)."""
        if self.show_internal:
            return self._frames
        user = [f for f in self._frames if not f.internal]
        return user or self._frames

    @property
    def internal_count(self) -> int:
        """How many captured frames are internal (shown only on request)."""
        return sum(f.internal for f in self._frames)

    @property
    def frame(self) -> FrameView:
        """The selected frame."""
        return self.frames[self.selected]

    @property
    def thread_label(self) -> str:
        """``main thread`` or ``worker N``, plus the device when the breakpoint names it."""
        thread = thread_name(self.thread_id)
        return f"{thread}, {self.device}" if self.device else thread

    def set_show_internal(self, show: bool) -> None:
        """Show or hide internal frames, keeping the same frame selected when it stays visible."""
        if not self._frames:
            return
        current = self.frame
        self.show_internal = bool(show)
        frames = self.frames
        self.selected = next((i for i, f in enumerate(frames) if f is current), 0)

    def select_frame(self, index: int) -> None:
        """Select a shown frame by position (0 is where the breakpoint is)."""
        if not isinstance(index, int) or not 0 <= index < len(self.frames):
            raise ValueError(f"frame index must be an integer in [0, {len(self.frames) - 1}]")
        self.selected = index

    def select_batch(self, element: int) -> None:
        """Choose which ``vmap`` element every shown value comes from, by its index in the
        whole batch (``b 2`` is element 2 even when a predicate held only at 2, 3 and 4)."""
        self.batch_index = self._batch_position(element)

    def _batch_position(self, element: int) -> int:
        """Where element ``element`` of the whole batch is among the elements that stopped."""
        if self.batch_size is None or self.batch_total is None:
            raise ValueError("this breakpoint is not batched")
        if isinstance(element, bool) or not isinstance(element, int):
            raise ValueError(f"batch index must be an integer in [0, {self.batch_total - 1}]")
        if not 0 <= element < self.batch_total:
            raise ValueError(f"batch index must be an integer in [0, {self.batch_total - 1}]")
        if self.batch_indices is None:
            return element
        if element not in self.batch_indices:
            raise ValueError(
                f"element {element} did not stop here: the predicate held at {self.stopped_elements}"
            )
        return self.batch_indices.index(element)

    @property
    def batch_element(self) -> int:
        """The selected element's index in the whole ``vmap`` batch (before any predicate)."""
        if self.batch_indices is not None and self.batch_index < len(self.batch_indices):
            return int(self.batch_indices[self.batch_index])
        return self.batch_index

    @property
    def stopped_elements(self) -> str:
        """``elements 2, 3, 4``: where a predicate held, shortened past a dozen."""
        shown = [str(i) for i in (self.batch_indices or [])[:STOPPED_SHOWN]]
        more = len(self.batch_indices or []) - len(shown)
        return "elements " + ", ".join(shown) + (f", ... ({more} more)" if more > 0 else "")

    @property
    def batch_label(self) -> str:
        """``batch index 2 of 5``: the selected element and the whole batch, as ``b`` prints."""
        label = f"batch index {self.batch_element} of {self.batch_total}"
        if self.batch_indices is not None and len(self.batch_indices) != self.batch_total:
            label += f" (stopped at {self.stopped_elements})"
        return label

    def frame_locals(
        self, frame: FrameView | None = None, batch_index: int | None = None
    ) -> dict[str, Any]:
        """The frame's locals with batched values narrowed to the selected batch element."""
        frame = self.frame if frame is None else frame
        index = self.batch_index if batch_index is None else batch_index
        if self.batch_size is None or not frame.batched:
            return dict(frame.locals)
        return {
            name: _batch_element(value, frame.batched[name], index)
            if name in frame.batched
            else value
            for name, value in frame.locals.items()
        }

    def evaluate(
        self,
        expression: str | CodeType,
        *,
        depth: int | None = None,
        element: int | None = None,
    ) -> Any:
        """Evaluate ``expression`` in a frame's globals and (batch-narrowed) locals.

        The selected frame and element, unless ``depth`` and ``element`` (an index in the
        whole ``vmap`` batch) name others: a shard session compares every shard at the shown
        shard's. ``depth`` is clamped to the frames there are; ``element`` must have stopped.
        A kernel interrupt stops the expression at once, on a worker thread too.
        """
        frames = self.frames
        if not frames:
            raise LookupError("this breakpoint has no frames")
        frame = frames[self.selected if depth is None else max(0, min(depth, len(frames) - 1))]
        batch_index = None
        if element is not None and self.batch_size is not None:
            batch_index = self._batch_position(element)
        namespace = dict(frame.globals)
        namespace.update(self.frame_locals(frame, batch_index))
        if isinstance(expression, str):
            expression = compile(expression, "<jdb>", "eval")
        code = expression
        return interrupts.call_interruptibly(lambda: eval(code, namespace))

    def run(self, line: str) -> Entry:
        """Run one jdb command line, record it in the transcript and history, and return it."""
        line = self._next_line(line)
        if not line:
            return Entry("", "")
        name, arg = split_command(line)
        key = commands.key_of(name, commands.HIT)
        try:
            result = _HANDLERS[key](self, arg) if key else _print_value(self, line)
        except _EVALUATION_ERRORS as err:
            result = Entry(line, f"*** {describe_error(err)}", error=True)
        entry = result if isinstance(result, Entry) else Entry(line, result)
        if entry.command != line:
            entry = Entry(line, entry.output, entry.error, entry.value)
        self._record(entry)
        return entry

    # What an engine's desk reads and does (:class:`~.base.Held`).

    @property
    def arrived(self) -> int:
        """One hit, always there."""
        return 1

    @property
    def waiting(self) -> int:
        """1 while the hit waits, 0 once it was resumed."""
        return int(self.resume is None)

    def hit_states(self) -> list[dict[str, str]]:
        """The one hit, named by its device or thread, and whether it waits or how it went on."""
        state = self.resume.value if self.resume is not None else "waiting"
        return [{"label": self.device or self.thread_label, "state": state}]

    def compare_set(self) -> tuple[Session, list[Hit]]:
        """A compare here evaluates in this one hit."""
        return self, [Hit(place_of(self), self)]

    def continue_hit(self, index: int) -> None:
        """Continue hit ``index``, which must be 0: the session holds one."""
        if index != 0:
            raise ValueError(f"this session holds one hit, not hit {index}")
        self.resume = Resume.CONTINUE

    def close(self) -> None:
        """Drop every reference to the program's frames and values."""
        for frame in self._frames:
            frame.release()

    def context(self, num_lines: int = 2) -> str:
        """The CLI's ``print_context``: ``> file(line)`` and the lines around the current one."""
        if not self.frames:
            return "> <no frames>"
        frame = self.frame
        lines = [f"> {frame.shown_file}({frame.shown_line})"]
        if frame.offset is None:
            lines.append("    <no source>")
            return "\n".join(lines)
        for i, text in enumerate(frame.source):
            if frame.offset - 1 - num_lines <= i <= frame.offset + num_lines:
                lines.append(f"{'->  ' if i == frame.offset else '    '}{text}")
        return "\n".join(lines)

    def backtrace(self) -> str:
        """The CLI's ``where``: outermost frame first, the breakpoint's frame last."""
        lines = ["Traceback:"]
        for frame in reversed(self.frames):
            lines.append(f'  File "{frame.shown_file}", line {frame.shown_line}')
            code = frame.source[frame.offset].strip() if frame.offset is not None else "<no source>"
            lines.append(f"    {code}")
        return "\n".join(lines)


def _batch_element(value: Any, leaves: Any, index: int) -> Any:
    """Element ``index`` of a batched local: each batched pytree leaf narrowed, nothing else.

    ``leaves`` says which leaves are batched (core's ``BatchedLeaves``); without it the value
    itself is the batched array.
    """
    try:
        return value[index] if leaves is None else leaves.element(value, index)
    except Exception:
        return value


def split_command(line: str) -> tuple[str, str]:
    """cmd.Cmd's parse: a leading identifier is the command name, the rest its argument."""
    if line.startswith("?"):
        return "help", line[1:].strip()
    end = 0
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line[:end], line[end:].strip()


def _print_value(session: Session, expression: str, *, pretty: bool = False) -> Entry:
    if not expression:
        return Entry("", "*** SyntaxError: an expression is needed", error=True)
    try:
        value = session.evaluate(expression)
    except _EVALUATION_ERRORS as err:
        return Entry("", f"*** {describe_error(err)}", error=True)
    return Entry("", safe_repr(value, pretty=pretty), value=value if is_array(value) else None)


def _cmd_p(session: Session, arg: str) -> Entry:
    return _print_value(session, arg)


def _cmd_pp(session: Session, arg: str) -> Entry:
    return _print_value(session, arg, pretty=True)


def _cmd_up(session: Session, _arg: str) -> str:
    if session.selected == len(session.frames) - 1:
        return "At topmost frame.\n" + session.context()
    session.selected += 1
    return session.context()


def _cmd_down(session: Session, _arg: str) -> str:
    if session.selected == 0:
        return "At bottommost frame.\n" + session.context()
    session.selected -= 1
    return session.context()


def _cmd_where(session: Session, _arg: str) -> str:
    return session.backtrace()


def _cmd_list(session: Session, _arg: str) -> str:
    return session.context(num_lines=5)


def _cmd_batch(session: Session, arg: str) -> str:
    if session.batch_size is None:
        raise ValueError("this breakpoint is not batched")
    if arg:
        try:
            index = int(arg)
        except ValueError:
            raise ValueError(f"batch index must be an integer, got {arg!r}") from None
        session.select_batch(index)
    return session.batch_label


def _resume(how: Resume, message: str) -> Callable[[Session, str], str]:
    def run(session: Session, _arg: str) -> str:
        session.resume = how
        return message

    return run


def _cmd_help(_session: Session, arg: str) -> Entry:
    if not arg:
        table = commands.hit_commands()
        width = max(len(c.usage) for c in table)
        lines = ["Documented commands (type help <topic>):"]
        lines += [f"  {c.usage.ljust(width)}  {c.summary}" for c in table]
        lines.append("Any other line is evaluated as an expression in the selected frame.")
        return Entry("", "\n".join(lines))
    command = commands.find(arg)
    if command is None or commands.HIT not in command.kinds:
        return Entry("", f"*** No help on {arg}", error=True)
    return Entry("", f"{command.usage}\n    {command.summary}")


_HANDLERS: dict[str, Callable[[Session, str], Entry | str]] = {
    "help": _cmd_help,
    "p": _cmd_p,
    "pp": _cmd_pp,
    "up": _cmd_up,
    "down": _cmd_down,
    "where": _cmd_where,
    "list": _cmd_list,
    "batch": _cmd_batch,
    "continue": _resume(Resume.CONTINUE, "Continuing."),
    "continue_all": _resume(
        Resume.CONTINUE_ALL, "Continuing; skipping the remaining breakpoints of this run."
    ),
    "quit": _resume(Resume.QUIT, "Quitting: the computation is stopped."),
}
"""What each command of :data:`~.commands.TABLE` that one hit takes does there."""

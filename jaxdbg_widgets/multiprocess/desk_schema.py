"""The desk's requests and replies, declared once: what the notebook sends an engine's desk
over the control channel (:mod:`.desk`) and the plain data it answers.

``tests/unit/multiprocess/test_job_breakpoints.py`` checks every request and reply of its
runs against these. Keys a message may lack live in a ``total=False`` class above the keys
it always has.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from jaxdbg_widgets.debugger.schema import DebuggerView, TranscriptEntry

Op = Literal["state", "view", "message", "compare", "pictures", "continue", "end"]


class _RequestOptions(TypedDict, total=False):
    token: int
    """Which held hit the request is about (every op but ``state``)."""
    message: dict[str, Any]
    """``message``: a widget message, as the debugger widget sends it."""
    expression: str
    """``compare``: what to evaluate in every hit."""
    indices: list[int]
    """``pictures``: the hits (rows of the last compare) to draw."""
    scale: dict[str, Any]
    """``pictures``: the one scale, as ``dataclasses.asdict(Scale)``."""
    index: int | None
    """``continue``: the device to continue alone, or ``None`` for every one."""
    reason: str
    """``end``: why the notebook ended the hits (they raise it)."""
    resume: str
    """``end``: ``continue_all`` or ``quit`` for every hit here."""


class DeskRequest(_RequestOptions):
    """One request from the notebook."""

    op: Op


class HitState(TypedDict):
    """One device's hit held here: its label and ``waiting`` or how it went on."""

    label: str
    state: str


class HitSummary(TypedDict):
    """What the notebook lists for one held hit."""

    token: int
    hit: int
    location: str
    context: str
    version: int
    resume: str | None
    devices: list[HitState]


class StateReply(TypedDict):
    """``state``: this engine's process index and the hits waiting here."""

    process: int
    hits: list[HitSummary]


class ViewReply(HitSummary):
    """``view``, ``message``, ``continue``: the hit, its whole view and its new transcript rows."""

    view: DebuggerView
    rows: list[TranscriptEntry]


class _CompareOptions(TypedDict, total=False):
    continued: bool
    value: str
    error: bool
    numbers: float | list[Any] | None
    """A real value of few elements: a number, or nested lists of them."""
    drawable: dict[str, Any]
    """The value's shape and finite extent, when it can be drawn."""


class CompareRow(_CompareOptions):
    """One hit's answer to a compare: its text, or ``continued`` for a released device."""

    label: str


class CompareReply(TypedDict):
    rows: list[CompareRow]


class Picture(TypedDict):
    png: str
    label: str


class PicturesReply(TypedDict):
    pictures: list[Picture]


class EndReply(TypedDict):
    ended: bool


class _ErrorOptions(TypedDict, total=False):
    gone: bool
    """The hit no longer waits here."""


class ErrorReply(_ErrorOptions):
    """A request that could not be done, in one line."""

    error: str


REPLIES: dict[str, type] = {
    "state": StateReply,
    "view": ViewReply,
    "message": ViewReply,
    "compare": CompareReply,
    "pictures": PicturesReply,
    "continue": ViewReply,
    "end": EndReply,
}
"""The reply each op gets when it succeeds; any op may get an :class:`ErrorReply` instead."""

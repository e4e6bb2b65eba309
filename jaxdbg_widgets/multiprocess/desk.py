"""An engine's breakpoints, held until the notebook answers them over the control channel.

On an engine of a ``jaxdbg_widgets.cluster`` job, the backend hands every hit (one hit, or the
gathered shards of the engine's devices) to :meth:`Desk.serve`, which blocks it until it is
answered. The notebook reaches the desk while the engine's ``%%px`` cell is blocked: each
request arrives on the engine's control thread and :meth:`Desk.answer` returns plain data
(``state``, ``view``, ``message``, ``compare``, ``pictures``, ``continue``, ``end``; declared
in :mod:`.desk_schema`). The views are built here, where the frames are; only their JSON
crosses to the notebook. A compare sends each array's shape and finite extent; the notebook
picks the pictures and their one scale, and ``pictures`` draws them here from the values the
compare kept.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.base import Entry, Held, Resume
from jaxdbg_widgets.debugger.session.compare_pictures import drawable
from jaxdbg_widgets.debugger.session.shard_compare import plain_answers
from jaxdbg_widgets.debugger.view.build import transcript_rows
from jaxdbg_widgets.debugger.view.builders import builder_for
from jaxdbg_widgets.pictures.row import row_pictures
from jaxdbg_widgets.pictures.scale import Scale

WAKE_SECONDS = 0.1
"""How often a held hit looks whether it was answered (each answer also wakes it at once)."""


class Ended(Exception):
    """The notebook ended this engine's hits because of an interrupt or another process."""


class Gone(LookupError):
    """The hit a request names no longer waits here (it went on, or was ended)."""


@dataclass(eq=False)
class _Held:
    token: int
    session: Held
    builder: Any
    sent: Entry | None = None
    error: BaseException | None = None
    compared: list[Any] = field(default_factory=list)
    """Each hit's value of the last compare, for the pictures the notebook asks for next."""


class Desk:
    """The hits this engine holds for the notebook, each named by a token."""

    def __init__(self, process: Callable[[], int]) -> None:
        self._process = process
        self._changed = threading.Condition()
        self._held: dict[int, _Held] = {}
        self._tokens = itertools.count(1)

    def serve(self, session: Held) -> Resume:
        """Hold ``session`` until the notebook answers it; raises :class:`Ended` when the
        notebook ends it (an interrupt, a process that died)."""
        with self._changed:
            held = _Held(next(self._tokens), session, builder_for(session))
            self._held[held.token] = held
            self._changed.notify_all()
        try:
            with self._changed:
                while session.resume is None and held.error is None:
                    self._changed.wait(WAKE_SECONDS)
        finally:
            with self._changed:
                del self._held[held.token]
            held.builder.forget()
        if held.error is not None:
            raise held.error
        resume = session.resume
        assert resume is not None  # the wait above ends on an answer or an error
        return resume

    def answer(self, request: Any) -> dict[str, Any]:
        """One control request from the notebook, answered with plain data (an ``error`` key
        when it could not be done)."""
        try:
            if not isinstance(request, dict):
                raise TypeError("a desk request must be an object with an 'op'")
            with self._changed:
                reply = self._answer(request)
                self._changed.notify_all()
            return reply
        except Gone as gone:
            return {"error": one_line(gone), "gone": True}
        except Exception as err:
            return {"error": one_line(err)}

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "state":
            return {"process": self._process(), "hits": [_summary(h) for h in self._waiting()]}
        held = self._find(request.get("token"))
        if op == "view":
            return self._view(held)
        if op == "message":
            apply_message(held.session, request.get("message"))
            _finish_if_released(held.session)
            return self._view(held)
        if op == "compare":
            return {"rows": _compare(held, str(request.get("expression", "")))}
        if op == "pictures":
            return {"pictures": _pictures(held, request)}
        if op == "continue":
            _continue(held.session, request.get("index"))
            return self._view(held)
        if op == "end":
            _end(held, request)
            return {"ended": True}
        raise ValueError(f"unknown desk request {op!r}")

    def _waiting(self) -> list[_Held]:
        return [h for h in self._held.values() if h.session.resume is None and h.error is None]

    def _find(self, token: Any) -> _Held:
        held = self._held.get(token)
        if held is None:
            raise Gone(f"no breakpoint {token!r} waits on this engine any more")
        return held

    def _view(self, held: _Held) -> dict[str, Any]:
        """The hit's view, what its transcript gained since the last reply, and its state."""
        session = held.session
        transcript = session.transcript
        start = transcript.index(held.sent) + 1 if held.sent in transcript else 0
        new = transcript[start:]
        if transcript:
            held.sent = transcript[-1]
        resume = session.resume
        return {
            **_summary(held),
            "view": held.builder.build(resume.value if resume is not None else "waiting"),
            "rows": transcript_rows(new, {}),
        }


def _summary(held: _Held) -> dict[str, Any]:
    """What the notebook lists for one held hit: where, its devices and their states."""
    session = held.session
    resume = session.resume
    return {
        "token": held.token,
        "hit": session.hit,
        "location": session.location,
        "context": session.context(),
        "version": session.version,
        "resume": resume.value if resume is not None else None,
        "devices": session.hit_states(),
    }


def _finish_if_released(session: Held) -> None:
    """An engine gathers only its own devices' hits: once each continued, its session ends."""
    if session.arrived and not session.waiting and session.resume is None:
        session.resume = Resume.CONTINUE


def _continue(session: Held, index: Any) -> None:
    """Continue every hit of this engine (``index`` ``None``) or its device ``index`` alone."""
    if index is None:
        session.resume = Resume.CONTINUE
    else:
        session.continue_hit(int(index))
        _finish_if_released(session)


def _end(held: _Held, request: dict[str, Any]) -> None:
    """Quit every hit here, or end them with the notebook's reason (they raise it)."""
    reason = request.get("reason")
    if reason:
        held.error = Ended(str(reason))
    elif request.get("resume") == Resume.CONTINUE_ALL.value:
        held.session.resume = Resume.CONTINUE_ALL
    else:
        held.session.resume = Resume.QUIT


def _compare(held: _Held, expression: str) -> list[dict[str, Any]]:
    """``expression`` in every hit of this engine: its label, text, error flag, numbers and,
    for an array of numbers, its shape and extent (``continued`` for a released device)."""
    reference, hits = held.session.compare_set()
    answers, held.compared = plain_answers(hits, expression, reference)
    return [
        {"label": hit.shard.label, "continued": True}
        if answer is None
        else _compare_row(hit.shard.label, answer, value)
        for hit, answer, value in zip(hits, answers, held.compared, strict=True)
    ]


def _compare_row(label: str, answer: tuple[str, bool, Any], value: Any) -> dict[str, Any]:
    """One answered hit's compare row; ``drawable`` only when its value can be drawn."""
    row = {"label": label, "value": answer[0], "error": answer[1], "numbers": answer[2]}
    found = None if answer[1] else drawable(value)
    if found is not None:
        row["drawable"] = found.plain()
    return row


def _pictures(held: _Held, request: dict[str, Any]) -> list[dict[str, str]]:
    """The last compare's values of the hits ``indices`` drawn on the notebook's one scale."""
    indices = [int(i) for i in request.get("indices", [])]
    if any(not 0 <= i < len(held.compared) or held.compared[i] is None for i in indices):
        raise ValueError("no compared value to draw for those hits; compare again")
    scale = Scale(**request["scale"])
    drawn = row_pictures([held.compared[i] for i in indices], scale)
    return [{"png": p.png, "label": p.label} for p in drawn]

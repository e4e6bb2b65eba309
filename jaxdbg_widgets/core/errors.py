"""Exceptions of the core runtime: how to show one in a line, how to recover a callback's own.

XLA turns any exception raised inside a host callback into a ``JaxRuntimeError`` whose
message holds the formatted Python stack and nothing else. Each host call is therefore made
through a frame whose file name carries a number (``<jaxdbg_widgets host call 7>``); the number
finds its failure again, by identity rather than by the text of the message. What is kept is a
detached copy: same type, arguments and attributes, but no traceback, cause or context, so no
frame (and no array a frame holds) outlives the call.
"""

from __future__ import annotations

import collections
import copy
import itertools
import re
import threading
from collections.abc import Callable
from typing import Any, NoReturn


class DebuggerQuit(Exception):
    """Raised by a debugger backend to stop the computation at a breakpoint."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or "the jaxdbg_widgets debugger was quit at a breakpoint; the computation was stopped"
        )


_KEPT = 32
_FAILURES: collections.OrderedDict[int, BaseException] = collections.OrderedDict()
_LOCK = threading.Lock()
_NUMBERS = itertools.count(1)
_MARK = "<jaxdbg_widgets host call {}>"
_MARK_PATTERN = re.compile(r'"<jaxdbg_widgets host call (\d+)>"')
_TRAMPOLINE = """
def call(*args):
    try:
        return fn(*args)
    except BaseException as failure:
        keep(number, failure)
        raise
"""


_TRACEBACK_HEADER = "Traceback (most recent call last)"


def one_line(error: BaseException) -> str:
    """``ValueError: bad value``: an exception in one line, for notes, status and load messages.

    The type and the first non-blank line of the message (the type alone when there is none).
    A message that carries a formatted traceback (a failed host callback's ``JaxRuntimeError``)
    gives that traceback's last line instead: the callback's own exception.
    """
    name = type(error).__name__
    try:
        text = str(error)
    except Exception:
        text = "<exception message could not be shown>"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return name
    if len(lines) > 1 and _TRACEBACK_HEADER in text:
        return lines[-1]
    return f"{name}: {lines[0]}"


def detached(exc: BaseException) -> BaseException:
    """A copy of ``exc`` that shows the same line but holds no traceback, cause or context."""
    try:
        clone = copy.copy(exc)  # rebuilt from its reduce value, as pickling would
    except Exception:  # an __init__ that cannot take back its own args
        clone = type(exc).__new__(type(exc))
        clone.args = exc.args
        clone.__dict__.update(vars(exc))
    clone.__traceback__ = clone.__cause__ = clone.__context__ = None
    return clone


def _keep(number: int, exc: BaseException) -> None:
    with _LOCK:
        _FAILURES.pop(number, None)
        _FAILURES[number] = detached(exc)
        while len(_FAILURES) > _KEPT:
            _FAILURES.popitem(last=False)


def remember(exc: BaseException) -> str:
    """Keep a detached copy of ``exc``; return the file name that finds it in a traceback."""
    number = next(_NUMBERS)
    _keep(number, exc)
    return _MARK.format(number)


def raise_findable(exc: BaseException) -> NoReturn:
    """Raise ``exc`` from a frame that names it, for code that JAX itself calls back.

    The message XLA builds lists the frames from the innermost one outward, so ``exc`` is
    raised afresh (its own traceback dropped) from that frame, keeping its cause and showing
    no other exception as its context.
    """
    namespace = {"failure": exc.with_traceback(None), "cause": exc.__cause__}
    try:
        exec(compile("raise failure from cause", remember(exc), "exec"), namespace)
    finally:
        namespace.clear()
    raise AssertionError("unreachable")  # pragma: no cover - the exec above always raises


def findable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` called through a frame named ``<jaxdbg_widgets host call N>``, N unique to it.

    XLA's message for a failed host call lists the frames of the failure, so it names N; the
    failure itself is kept (detached) under N for ``original_exception``.
    """
    number = next(_NUMBERS)
    namespace = {"fn": fn, "keep": _keep, "number": number}
    exec(compile(_TRAMPOLINE, _MARK.format(number), "exec"), namespace)
    return namespace["call"]


def original_exception(error: BaseException) -> BaseException | None:
    """The exception a host callback raised that ``error`` (a ``JaxRuntimeError``) reports.

    It is a fresh detached copy (see ``detached``): its type, message and attributes are the
    original's, but it carries no traceback, so raising it keeps nothing alive here.
    """
    found = _MARK_PATTERN.findall(str(error))
    if not found:
        return None
    with _LOCK:
        kept = _FAILURES.get(int(found[-1]))
    return None if kept is None else detached(kept)


def reraise_original(error: BaseException) -> None:
    """Raise the callback's own exception behind ``error`` if there is one, else ``error``."""
    original = original_exception(error)
    if original is None:
        raise error
    raise original from error

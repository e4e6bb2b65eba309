"""``%jaxdbg`` tab completion on IPython 7 to 9."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload


def probe_context_matchers(shell: Any) -> None:
    """Raise unless IPython >= 8.6's context matchers are there."""
    from IPython.core.completer import SimpleCompletion, context_matcher  # noqa: F401

    if not hasattr(shell.Completer, "custom_matchers"):
        raise AttributeError("Completer has no custom_matchers")


def probe_magic_arg_matchers(shell: Any) -> None:
    """Raise unless older IPython's magic-argument matchers are there."""
    if not isinstance(shell.Completer.magic_arg_matchers, list):
        raise TypeError("Completer.magic_arg_matchers is not a list")


def probe(shell: Any) -> None:
    """Raise unless either way of completing a magic's arguments is there."""
    try:
        probe_context_matchers(shell)
    except Exception:
        probe_magic_arg_matchers(shell)


def add_line_completer(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    """Complete lines starting with ``magic`` (e.g. ``%jaxdbg``) with ``complete(line)``.

    IPython >= 8.6 gets a context matcher, older IPython a magic-argument matcher; both
    replace every other completion on such lines. Returns the undo.
    """
    try:
        probe_context_matchers(shell)
    except Exception:
        return add_magic_arg_matcher(shell, magic, complete)
    return _add_context_matcher(shell, magic, complete)


def _add_context_matcher(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    from IPython.core.completer import SimpleCompletion, context_matcher

    @context_matcher()
    def matcher(context: Any) -> dict[str, Any]:
        line = context.text_until_cursor.lstrip()
        if not line.startswith(f"{magic} "):
            return {"completions": [], "suppress": False}
        found = [SimpleCompletion(text=m, type="jaxdbg") for m in complete(line)]
        return {"completions": found, "suppress": True}

    return _append_undoably(shell.Completer.custom_matchers, matcher)


def add_magic_arg_matcher(
    shell: Any, magic: str, complete: Callable[[str], list[str]]
) -> Callable[[], None]:
    """The IPython 7 route of :func:`add_line_completer`."""
    completer = shell.Completer

    def matcher(line_buffer: str) -> list[str]:
        line = getattr(completer, "text_until_cursor", line_buffer).lstrip()
        return complete(line) if line.startswith(f"{magic} ") else []

    return _append_undoably(completer.magic_arg_matchers, matcher)


def _append_undoably(matchers: list[Any], matcher: Any) -> Callable[[], None]:
    matchers.append(matcher)

    def undo() -> None:
        if matcher in matchers:
            matchers.remove(matcher)

    return undo


class LiveNames(Sequence[str]):
    """Completion choices read again at each use, since a cell may define or drop names
    between two completions; ``read`` gives them."""

    def __init__(self, read: Callable[[], list[str]]) -> None:
        self._names = read

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

"""What JAX keys a trace on, as plain values: the function, each argument leaf, the statics and
the context. Built once per trace (never on a cache hit) and holding no user array."""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

REPR_LIMIT = 60
"""Longest text a static argument's or a context value's ``repr`` is shown with."""


@dataclass(frozen=True)
class Site:
    """A place in the user's code: file and line, and the label people read (``In[3]:2``)."""

    filename: str
    lineno: int
    label: str


UNKNOWN_SITE = Site("(unknown)", 0, "(unknown)")
JAX_OWN = "JAX (an op outside jit)"
"""Where JAX's own functions are said to be defined: its eager operations and jnp functions."""


@dataclass(frozen=True)
class FunctionId:
    """The function a program was traced from: its name and where it was defined.

    ``key`` groups the programs of one function across new objects built at one definition
    (a ``jax.jit(lambda ...)`` in a loop); ``ref`` tells whether two traces saw the same object.
    """

    name: str
    defined: Site
    jax_own: bool
    partial: bool = False
    ref: Callable[[], Any] | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        """Name and definition site: one function across the objects built there."""
        return (self.name, self.defined.filename, self.defined.lineno)

    def same_object(self, other: FunctionId) -> bool:
        """Whether both were traced from one live object (unknown counts as the same)."""
        if self.ref is None or other.ref is None:
            return True
        mine, theirs = self.ref(), other.ref()
        return mine is not None and mine is theirs


@dataclass(frozen=True)
class Leaf:
    """One argument leaf as JAX types it: ``f32[32,3]``, weak or not, and its sharding."""

    path: str
    type: str
    weak: bool = False
    sharding: str | None = None
    none: bool = False

    def text(self) -> str:
        """``f32[3]``, marked weak for a Python scalar, or ``None``."""
        if self.none:
            return "None"
        weak = " (weak: a Python scalar)" if self.weak else ""
        return self.type + weak


@dataclass(frozen=True)
class Static:
    """A static argument's value as JAX hashes it; ``by_identity`` when its type hashes by ``id``."""

    path: str
    text: str
    hash: int | None
    by_identity: bool
    type_name: str


@dataclass(frozen=True)
class Signature:
    """Everything a trace is keyed on, as JAX's explain-cache-misses compares it."""

    function: FunctionId
    leaves: tuple[Leaf, ...]
    statics: tuple[Static, ...]
    context: tuple[tuple[str, str, int], ...]
    """``(name, text, hash)`` of each config value and context manager in JAX's cache key."""


def short(value: Any, limit: int = REPR_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters with an ellipsis."""
    try:
        text = repr(value)
    except Exception:  # a user's __repr__ must never break a trace
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _unwrap(function: Any) -> tuple[Any, bool]:
    """The Python function behind wrappers and ``functools.partial``; whether one was a partial."""
    partial = False
    for _ in range(16):
        if isinstance(function, functools.partial):
            function, partial = function.func, True
        elif hasattr(function, "__wrapped__"):
            function = function.__wrapped__
        else:
            break
    return function, partial


def _code(function: Any) -> Any:
    """The code object of a function, or of a callable object's ``__call__``."""
    code = getattr(function, "__code__", None)
    if code is None:  # a callable object: where its class's __call__ is defined
        code = getattr(vars(type(function)).get("__call__"), "__code__", None)
    return code


def _users_function(function: Any, is_jax_file: Callable[[str], bool], depth: int = 2) -> Any:
    """The user's function that a JAX-made wrapper closes over (``pmap`` jits a ``_fun`` of its
    own around it), or ``None``."""
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        # a wrapped function JAX keeps as ``.f`` (pmap's) counts as well as a plain one
        for candidate in (value, getattr(value, "f", None)):
            inner = _unwrap(candidate)[0] if callable(candidate) else None
            code = _code(inner) if inner is not None else None
            if code is None:
                continue
            if not is_jax_file(code.co_filename):
                return inner
            if depth > 1:
                found = _users_function(inner, is_jax_file, depth - 1)
                if found is not None:
                    return found
    return None


def function_id(
    function: Any,
    event_name: str,
    place: Callable[[str, int], Site],
    is_jax_file: Callable[[str], bool],
) -> FunctionId:
    """The identity of ``function`` (as jit received it); ``event_name`` is JAX's name for it."""
    inner, partial = _unwrap(function)
    code = _code(inner)
    if code is not None and is_jax_file(code.co_filename):
        users = _users_function(inner, is_jax_file)
        if users is not None:  # JAX's wrapper may be made anew; the user's function is not
            function = inner = users
            code = _code(users)
    filename = code.co_filename if code is not None else "(unknown)"
    lineno = code.co_firstlineno if code is not None else 0
    jax_own = is_jax_file(filename)
    name = event_name if jax_own else getattr(inner, "__qualname__", None) or event_name
    try:
        ref: Callable[[], Any] | None = weakref.ref(function)
    except TypeError:
        ref = None
    defined = Site(filename, lineno, JAX_OWN) if jax_own else place(filename, lineno)
    return FunctionId(name, defined, jax_own, partial, ref)


def argument_names(function: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> list[str]:
    """The parameter name of each positional argument (``args[i]`` where it has none)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    names = []
    for i in range(len(args)):
        if i < len(parameters) and parameters[i].kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        ):
            names.append(parameters[i].name)
        else:
            names.append(f"args[{i}]")
    return names


def static_of(path: str, value: Any) -> Static:
    """A static argument as JAX's cache sees it: its hash, and whether that hash is an ``id``."""
    by_identity = type(value).__hash__ is object.__hash__
    try:
        hashed: int | None = hash(value)
    except TypeError:
        hashed = None
    return Static(path, short(value), hashed, by_identity, type(value).__name__)

"""Checking a widget's built JSON against its ``TypedDict``: wrong types, missing or undeclared
keys, and which declared keys a set of built values reached."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union


def problems(
    value: Any, annotation: Any, where: str = "$", seen: set[str] | None = None
) -> list[str]:
    """Where ``value`` (built JSON) breaks ``annotation``: wrong types, missing or undeclared keys.

    ``seen`` collects ``Type.key`` for every key found, to tell which declared keys were built.
    """
    if typing.is_typeddict(annotation):
        if not isinstance(value, dict):
            return [f"{where}: expected an object ({annotation.__name__}), got {value!r:.60}"]
        hints = typing.get_type_hints(annotation)
        found = [f"{where}: undeclared key {key!r}" for key in value if key not in hints]
        found += [
            f"{where}: missing key {key!r}"
            for key in annotation.__required_keys__
            if key not in value
        ]
        for key, item in value.items():
            if key in hints:
                if seen is not None:
                    seen.add(f"{annotation.__name__}.{key}")
                found += problems(item, hints[key], f"{where}.{key}", seen)
        return found
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (Union, types.UnionType):
        tried = [problems(value, arg, where) for arg in args]
        for arg, found in zip(args, tried, strict=True):
            if not found:
                return problems(value, arg, where, seen)
        return min(tried, key=len)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin is list:  # a tuple is a JSON array too
        if not isinstance(value, (list, tuple)):
            return [f"{where}: expected a list, got {value!r:.60}"]
        return [
            p
            for i, item in enumerate(value)
            for p in problems(item, args[0], f"{where}[{i}]", seen)
        ]
    if origin is tuple:
        if not isinstance(value, (list, tuple)) or len(value) != len(args):
            return [f"{where}: expected {len(args)} items, got {value!r:.60}"]
        return [
            p
            for i, (item, arg) in enumerate(zip(value, args, strict=True))
            for p in problems(item, arg, f"{where}[{i}]", seen)
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: expected an object, got {value!r:.60}"]
        return [
            p
            for key, item in value.items()
            for p in problems(item, args[1], f"{where}.{key}", seen)
        ]
    accepted = {
        str: (str,),
        int: (int,),
        float: (int, float),
        bool: (bool,),
        type(None): (type(None),),
    }.get(annotation if annotation is not None else type(None))
    if accepted is None:
        raise TypeError(f"no JSON check for {annotation!r}")
    is_bool = isinstance(value, bool)
    if isinstance(value, accepted) and (annotation is bool or not is_bool):
        return []
    return [f"{where}: expected {getattr(annotation, '__name__', annotation)}, got {value!r:.60}"]


def declared_keys(annotation: Any) -> set[str]:
    """``Type.key`` for every key of ``annotation`` and of the ``TypedDict``s it reaches."""
    keys: set[str] = set()
    pending, done = [annotation], set()
    while pending:
        current = pending.pop()
        if typing.is_typeddict(current):
            if current in done:
                continue
            done.add(current)
            for key, hint in typing.get_type_hints(current).items():
                keys.add(f"{current.__name__}.{key}")
                pending.append(hint)
        else:
            pending.extend(typing.get_args(current))
    return keys

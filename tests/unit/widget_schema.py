"""Reading the widgets' two schemas: JSDoc ``@typedef``s in ``js/`` and the ``TypedDict``s.

Both are turned into one small type tree (``("string",)``, ``("array", T)``, ``("ref", name)``,
...), so a test can compare them; :func:`problems` checks a built JSON value against a
``TypedDict``.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union

JS = Path(__file__).resolve().parents[2] / "js"

Tree = tuple[Any, ...]
STRING, NUMBER, BOOLEAN, NULL = ("string",), ("number",), ("boolean",), ("null",)


@dataclass
class Typedef:
    """One ``@typedef``: an object with properties, or a type expression (``alias``)."""

    name: str
    file: str
    properties: dict[str, tuple[Tree, bool]] = field(default_factory=dict)
    alias: Tree | None = None
    imported: bool = False


def union(members: list[Tree]) -> Tree:
    """A union flattened and without repeats; one member stands for itself."""
    flat: set[Tree] = set()
    for member in members:
        flat.update(member[1] if member[0] == "union" else (member,))
    return next(iter(flat)) if len(flat) == 1 else ("union", frozenset(flat))


# ---- JSDoc


def _braced(text: str, start: int) -> tuple[str, int]:
    """The text inside the braces that open at ``start``, and the index after them."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise ValueError(f"unbalanced braces in {text!r}")


def parse_typedefs(path: Path) -> dict[str, Typedef]:
    """Every ``@typedef`` in the comment blocks of one JS file, by name."""
    found: dict[str, Typedef] = {}
    for block in re.findall(r"/\*\*(.*?)\*/", path.read_text(encoding="utf-8"), re.S):
        text = " ".join(line.strip().lstrip("*").strip() for line in block.splitlines())
        at = text.find("@typedef")
        if at < 0:
            continue
        body, end = _braced(text, text.index("{", at))
        name = text[end:].split()[0]
        typedef = Typedef(name, path.name)
        if body.startswith("import("):
            typedef.imported = True
        elif body != "Object":
            typedef.alias = parse_type(body)
        for match in re.finditer(r"@property\s+\{", text):
            kind, after = _braced(text, match.end() - 1)
            key = text[after:].split()[0]
            optional = key.startswith("[")
            typedef.properties[key.strip("[]")] = (parse_type(kind), optional)
        found[name] = typedef
    return found


def all_typedefs() -> dict[str, Typedef]:
    """The typedefs of every module in ``js/``; a name is declared once (imports aside)."""
    every: dict[str, Typedef] = {}
    for path in sorted(JS.glob("*.js")):
        for name, typedef in parse_typedefs(path).items():
            if typedef.imported:
                continue
            assert name not in every, f"{name} is declared in {every[name].file} and {path.name}"
            every[name] = typedef
    return every


_TOKEN = re.compile(r'\s*(Array<|Object<|"[^"]*"|[A-Za-z_*][\w.]*|[|&<>\[\](),{}:?])')


def parse_type(text: str) -> Tree:
    """The tree of a JSDoc type expression (unions, ``&``, ``Array<T>``/``T[]``, tuples, literals)."""
    tokens = _TOKEN.findall(text)
    if re.sub(r"\s+", "", "".join(tokens)) != re.sub(r"\s+", "", text):
        raise ValueError(f"cannot read the JSDoc type {text!r}")
    tree, rest = _union(tokens)
    if rest:
        raise ValueError(f"unexpected {rest[0]!r} in {text!r}")
    return tree


def _union(tokens: list[str]) -> tuple[Tree, list[str]]:
    members = []
    while True:
        member, tokens = _intersection(tokens)
        members.append(member)
        if not tokens or tokens[0] != "|":
            return union(members), tokens
        tokens = tokens[1:]


def _intersection(tokens: list[str]) -> tuple[Tree, list[str]]:
    parts = []
    while True:
        part, tokens = _primary(tokens)
        while tokens[:2] == ["[", "]"]:  # T[] is Array<T>
            part, tokens = ("array", part), tokens[2:]
        parts.append(part)
        if not tokens or tokens[0] != "&":
            return (parts[0] if len(parts) == 1 else ("and", tuple(parts))), tokens
        tokens = tokens[1:]


_NAMED = {"string": STRING, "number": NUMBER, "boolean": BOOLEAN, "null": NULL, "*": ("any",)}


def _primary(tokens: list[str]) -> tuple[Tree, list[str]]:
    head, tokens = tokens[0], tokens[1:]
    if head == "(":
        inner, tokens = _union(tokens)
        return inner, _expect(tokens, ")")
    if head == "Array<":
        inner, tokens = _union(tokens)
        return ("array", inner), _expect(tokens, ">")
    if head == "Object<":
        tokens = _expect(_expect(tokens, "string"), ",")
        inner, tokens = _union(tokens)
        return ("map", inner), _expect(tokens, ">")
    if head == "[":
        items = []
        while True:
            item, tokens = _union(tokens)
            items.append(item)
            if tokens[0] == "]":
                return ("tuple", tuple(items)), tokens[1:]
            tokens = _expect(tokens, ",")
    if head == "{":  # an inline object, {key: T, other?: U}
        fields = []
        while tokens[0] != "}":
            key, tokens = tokens[0], tokens[1:]
            optional = tokens[0] == "?"
            item, tokens = _union(_expect(tokens[optional:], ":"))
            fields.append((key, item, optional))
            if tokens[0] == ",":
                tokens = tokens[1:]
        return ("object", frozenset(fields)), tokens[1:]
    if head.startswith('"'):
        return ("literal", head[1:-1]), tokens
    return _NAMED.get(head, ("ref", head)), tokens


def _expect(tokens: list[str], wanted: str) -> list[str]:
    if not tokens or tokens[0] != wanted:
        raise ValueError(f"expected {wanted!r}, found {tokens[:1]}")
    return tokens[1:]


def resolved(tree: Tree, typedefs: dict[str, Typedef]) -> Tree:
    """``tree`` with each name of a typedef that is a type expression (``Status``) replaced by
    that expression, as Python's annotation holds it; object typedefs stay names."""
    kind = tree[0]
    if kind == "ref":
        alias = typedefs[tree[1]].alias if tree[1] in typedefs else None
        return tree if alias is None or alias[0] == "and" else resolved(alias, typedefs)
    if kind == "union":
        return union([resolved(member, typedefs) for member in tree[1]])
    if kind in ("array", "map"):
        return (kind, resolved(tree[1], typedefs))
    if kind == "tuple":
        return (kind, tuple(resolved(item, typedefs) for item in tree[1]))
    if kind == "object":
        return (kind, frozenset((k, resolved(t, typedefs), o) for k, t, o in tree[1]))
    return tree


def js_properties(name: str, typedefs: dict[str, Typedef]) -> dict[str, tuple[Tree, bool]]:
    """The properties of an object typedef, with those of an ``A & B`` typedef merged, and names
    of type-expression typedefs replaced by their expressions."""
    typedef = typedefs[name]
    if typedef.alias is None:
        return {
            key: (resolved(tree, typedefs), optional)
            for key, (tree, optional) in typedef.properties.items()
        }
    if typedef.alias[0] == "ref":
        return js_properties(typedef.alias[1], typedefs)
    if typedef.alias[0] == "and":
        merged: dict[str, tuple[Tree, bool]] = {}
        for part in typedef.alias[1]:
            assert part[0] == "ref", f"{name}: only named typedefs can be joined with &"
            merged.update(js_properties(part[1], typedefs))
        return merged
    raise AssertionError(f"{name} is not an object type")


# ---- Python


def python_type(annotation: Any) -> Tree:
    """The tree of a ``TypedDict`` field's annotation, in JSDoc's terms."""
    if annotation in (str,):
        return STRING
    if annotation in (int, float):
        return NUMBER
    if annotation is bool:
        return BOOLEAN
    if annotation in (None, type(None)):
        return NULL
    if annotation is Any:
        return ("any",)
    if typing.is_typeddict(annotation):
        return ("ref", annotation.__name__)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return union([("literal", value) for value in args])
    if origin in (Union, types.UnionType):
        return union([python_type(arg) for arg in args])
    if origin is list:
        return ("array", python_type(args[0]))
    if origin is tuple:
        return ("tuple", tuple(python_type(arg) for arg in args))
    if origin is dict:
        return ("map", python_type(args[1]))
    raise TypeError(f"no JSON type for {annotation!r}")


def python_properties(typed_dict: Any) -> dict[str, tuple[Tree, bool]]:
    """Each key of a ``TypedDict``: its type tree and whether it may be left out."""
    hints = typing.get_type_hints(typed_dict)
    return {
        key: (python_type(hint), key in typed_dict.__optional_keys__) for key, hint in hints.items()
    }


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

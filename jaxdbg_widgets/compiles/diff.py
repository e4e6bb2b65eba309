"""Why a function was traced again: its signature against the closest earlier one, difference by
difference, each named by its argument path (``batch: f32[32,3] → f32[7,3]``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from jaxdbg_widgets.compiles.signature import Signature

ARROW = " → "
NOT_PASSED = "not passed (its default)"
"""A static keyword left out: JAX keys a call on the keywords passed, not on the defaults."""


@dataclass(frozen=True)
class Difference:
    """One thing that differs from the earlier call: its kind, argument path and the change."""

    kind: str  # shape, dtype, weak type, sharding, structure, static, function, context
    path: str
    before: str
    after: str
    hint: str = ""

    def text(self) -> str:
        """``path: before → after``, with the hint in brackets."""
        change = f"{self.path}: {self.before}{ARROW}{self.after}"
        return f"{change} ({self.hint})" if self.hint else change


_SHARDED_DIM = re.compile(r"@[^,\]]*")


def _type_kind(before: str, after: str) -> str:
    """``sharding`` when only the ``@axis`` marks of an explicit sharding changed, ``shape``
    when the dims did, else ``dtype``."""
    if _SHARDED_DIM.sub("", before) == _SHARDED_DIM.sub("", after):
        return "sharding"
    return "shape" if before.partition("[")[0] == after.partition("[")[0] else "dtype"


def _leaf_differences(new: Signature, old: Signature) -> list[Difference]:
    """Leaves whose type, weak type or sharding changed, and keys that appeared or went."""
    found = []
    old_leaves = {leaf.path: leaf for leaf in old.leaves}
    new_leaves = {leaf.path: leaf for leaf in new.leaves}
    for path, leaf in new_leaves.items():
        was = old_leaves.get(path)
        if was is None:
            found.append(
                Difference("structure", path, "absent", leaf.text(), "a pytree key appeared")
            )
        elif was.none != leaf.none:
            found.append(Difference("structure", path, was.text(), leaf.text(), "None vs an array"))
        elif was.type != leaf.type:
            found.append(Difference(_type_kind(was.type, leaf.type), path, was.type, leaf.type))
        elif was.weak != leaf.weak:
            found.append(
                Difference(
                    "weak type",
                    path,
                    was.text(),
                    leaf.text(),
                    "a Python scalar is weakly typed; pass an array, e.g. jnp.float32(x)",
                )
            )
        elif (
            was.sharding is not None and leaf.sharding is not None and was.sharding != leaf.sharding
        ):
            found.append(Difference("sharding", path, was.sharding, leaf.sharding))
    for path, was in old_leaves.items():
        if path not in new_leaves:
            found.append(Difference("structure", path, was.text(), "absent", "a pytree key went"))
    return found


def _static_differences(new: Signature, old: Signature) -> list[Difference]:
    """Static arguments whose value (or hash) changed, or that were passed or left out."""
    found = []
    old_statics = {s.path: s for s in old.statics}
    for static in new.statics:
        was = old_statics.pop(static.path, None)
        if was is None:
            found.append(Difference("static", static.path, NOT_PASSED, static.text))
        elif static.by_identity and was.by_identity and static.hash != was.hash:
            found.append(
                Difference(
                    "static",
                    static.path,
                    f"a {was.type_name} object",
                    f"a new {static.type_name} object",
                    "hashed by identity: a new object each call never hits the cache; "
                    "give it __eq__ and __hash__ (a frozen dataclass) or keep one object",
                )
            )
        elif static.hash != was.hash or static.text != was.text:
            found.append(Difference("static", static.path, was.text, static.text))
    found.extend(
        Difference("static", path, was.text, "absent") for path, was in old_statics.items()
    )
    return found


def _function_differences(new: Signature, old: Signature) -> list[Difference]:
    """A new object of the same function, unless JAX made it (its eager ops)."""
    if new.function.jax_own or new.function.same_object(old.function):
        return []  # JAX builds its eager operations' functions anew on purpose
    what = "functools.partial" if new.function.partial else "function object"
    return [
        Difference(
            "function",
            new.function.name,
            f"the {what} traced before",
            f"a new {what}",
            f"built again at {new.function.defined.label}: jit it once, outside the loop",
        )
    ]


def _context_differences(new: Signature, old: Signature) -> list[Difference]:
    """Config values and context managers in JAX's cache key that changed."""
    before = {name: (text, hashed) for name, text, hashed in old.context}
    return [
        Difference("context", name, before[name][0], text, "a config value or context manager")
        for name, text, hashed in new.context
        if name in before and before[name][1] != hashed
    ]


def differences(new: Signature, old: Signature) -> list[Difference]:
    """Every difference of ``new`` from ``old``: function, context, statics, then leaves."""
    return (
        _function_differences(new, old)
        + _context_differences(new, old)
        + _static_differences(new, old)
        + _leaf_differences(new, old)
    )


def closest(new: Signature, earlier: Sequence[Signature]) -> tuple[int, list[Difference]] | None:
    """The index of the earlier signature with the fewest differences (the latest on a tie)
    and those differences; ``None`` when there is no earlier signature."""
    best: tuple[int, list[Difference]] | None = None
    for index, old in enumerate(earlier):
        found = differences(new, old)
        if best is None or len(found) <= len(best[1]):
            best = (index, found)
    return best

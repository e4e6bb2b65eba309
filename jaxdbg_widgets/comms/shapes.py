"""HLO shapes as text: ``f32[32,256]{1,0}``, tuples ``(f32[8], s32[])`` and their byte sizes."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

_ARRAY = re.compile(r"\s*([a-z][a-z0-9]*)\[([^\]]*)\](?:\{[^}]*\})?\s*")

# Bits per element of every XLA primitive type that can be a collective's buffer.
_BITS = {
    "pred": 8,
    "s2": 2,
    "u2": 2,
    "s4": 4,
    "u4": 4,
    "s8": 8,
    "u8": 8,
    "s16": 16,
    "u16": 16,
    "f16": 16,
    "bf16": 16,
    "s32": 32,
    "u32": 32,
    "f32": 32,
    "s64": 64,
    "u64": 64,
    "f64": 64,
    "c64": 64,
    "c128": 128,
    "token": 0,
}


class UnreadShape(ValueError):
    """A shape this reader cannot size; its instruction is counted unread."""


@dataclass(frozen=True)
class ArrayShape:
    """One array buffer: element type, dimensions, and whether a dimension is a dynamic bound."""

    dtype: str
    dims: tuple[int, ...]
    dynamic: bool = False

    @property
    def nbytes(self) -> int:
        return math.ceil(math.prod(self.dims) * element_bits(self.dtype) / 8)

    @property
    def text(self) -> str:
        return f"{self.dtype}[{','.join(str(d) for d in self.dims)}]"


def element_bits(dtype: str) -> int:
    """Bits per element; f8/f4 variants by their width prefix. Raises :class:`UnreadShape`."""
    if dtype in _BITS:
        return _BITS[dtype]
    match = re.fullmatch(r"f(\d+)e\d+m\d+\w*", dtype)
    if match:
        return int(match.group(1))
    raise UnreadShape(f"unknown element type {dtype!r}")


@functools.lru_cache(maxsize=4096)
def parse_shape(text: str) -> ArrayShape | tuple[object, ...]:
    """One array, or a tuple (nested tuples kept nested) of shapes. Raises :class:`UnreadShape`.

    A module writes a few shapes thousands of times, and the results are immutable: kept.
    """
    text = text.strip()
    if text.startswith("("):
        if not text.endswith(")"):
            raise UnreadShape(f"unclosed tuple shape {text[:60]!r}")
        return tuple(parse_shape(part) for part in split_top(text[1:-1]))
    match = _ARRAY.fullmatch(text)
    if match is None:
        raise UnreadShape(f"unknown shape {text[:60]!r}")
    dtype, dims_text = match.groups()
    element_bits(dtype)
    dims, dynamic = [], False
    for part in (p.strip() for p in dims_text.split(",") if p.strip()):
        if part.startswith("<="):
            part, dynamic = part[2:], True
        if not part.isdigit():
            raise UnreadShape(f"unknown dimension {part!r} in {text[:60]!r}")
        dims.append(int(part))
    return ArrayShape(dtype, tuple(dims), dynamic)


def flat_arrays(shape: ArrayShape | tuple[object, ...]) -> list[ArrayShape]:
    """Every array in a shape, depth first."""
    if isinstance(shape, ArrayShape):
        return [shape]
    return [array for part in shape for array in flat_arrays(part)]  # type: ignore[arg-type]


def split_top(text: str) -> list[str]:
    """Split at commas outside brackets, braces, parentheses and quotes; drop ``/*...*/``."""
    text = re.sub(r"/\*.*?\*/", "", text)
    parts, depth, start, quoted = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]

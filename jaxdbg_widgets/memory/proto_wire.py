"""Protocol-buffer bytes read field by field, without the message's schema or a protobuf library.

XLA hands its buffer assignment and its module only as serialized messages; the few fields the
peak report needs are read here by number, as the wire format lays them out.
"""

from __future__ import annotations

from collections.abc import Iterator

Fields = dict[int, list[int | bytes]]

_VARINT, _FIXED64, _LENGTH, _FIXED32 = 0, 1, 2, 5
_SIGN = 1 << 63


class WireError(ValueError):
    """The bytes are not a well-formed protocol-buffer message."""


def message(data: bytes) -> Fields:
    """Every field of one message by its number, repeated ones in order: an ``int`` for a
    varint, ``bytes`` for everything length-delimited (strings, messages, packed lists)."""
    out: Fields = {}
    for number, value in _fields(data):
        out.setdefault(number, []).append(value)
    return out


def integer(fields: Fields, number: int, default: int = 0) -> int:
    """The last value of a scalar integer field (proto3's rule), or ``default`` when unset."""
    values = [v for v in fields.get(number, ()) if isinstance(v, int)]
    return values[-1] if values else default


def integers(fields: Fields, number: int) -> list[int]:
    """A repeated integer field, whether written packed or one value at a time."""
    out: list[int] = []
    for value in fields.get(number, ()):
        out.extend(_packed(value) if isinstance(value, bytes) else [value])
    return out


def text(fields: Fields, number: int) -> str:
    """The last value of a string field, or ``""``."""
    values = [v for v in fields.get(number, ()) if isinstance(v, bytes)]
    return values[-1].decode("utf-8", "replace") if values else ""


def messages(fields: Fields, number: int) -> list[Fields]:
    """A repeated (or single) message field, each read into its own fields."""
    return [message(v) for v in fields.get(number, ()) if isinstance(v, bytes)]


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        number, kind = key >> 3, key & 7
        if kind == _VARINT:
            value, at = _varint(data, at)
            yield number, value - (1 << 64) if value & _SIGN else value
        elif kind == _LENGTH:
            length, at = _varint(data, at)
            if at + length > len(data):
                raise WireError("a length-delimited field runs past the end of the message")
            yield number, data[at : at + length]
            at += length
        elif kind in (_FIXED64, _FIXED32):
            at += 8 if kind == _FIXED64 else 4  # no field read here is fixed-width
        else:
            raise WireError(f"wire type {kind} of field {number} is not one this reader knows")
    if at != len(data):
        raise WireError("the last field runs past the end of the message")


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise WireError("a varint runs past the end of the message")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _packed(data: bytes) -> list[int]:
    out, at = [], 0
    while at < len(data):
        value, at = _varint(data, at)
        out.append(value - (1 << 64) if value & _SIGN else value)
    return out

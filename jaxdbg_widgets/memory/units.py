"""Byte counts in human units (binary prefixes), the same in Python and in ``js/memory_model.js``."""

from __future__ import annotations

import re

_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")


def human_bytes(count: float) -> str:
    """``1.5 MiB`` for 1572864: three significant digits, ``B`` below 1 KiB."""
    value = float(count)
    unit = 0
    while abs(value) >= 1024 and unit < len(_UNITS) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{int(value)} B"
    digits = 2 if abs(value) < 10 else 1 if abs(value) < 100 else 0
    return f"{value:.{digits}f} {_UNITS[unit]}"


_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?(?:[eE]\d+)?)\s*([KMGTPE]?)(i?)[bB]?\s*$")


def parse_bytes(size: str | int) -> int:
    """Bytes from ``16 GiB``, ``1.5GB``, ``512 MiB`` or an int; raises ValueError with one line.

    ``GiB`` is 2**30 and ``GB`` 10**9, as the units are defined.
    """
    if isinstance(size, bool) or not isinstance(size, int | str):
        raise ValueError(f"a memory size must be a string like '16 GiB' or bytes, got {size!r}")
    if isinstance(size, int):
        if size <= 0:
            raise ValueError(f"a memory size must be positive, got {size}")
        return size
    match = _SIZE.match(size)
    if match is None:
        raise ValueError(f"cannot read {size!r} as a memory size: write e.g. '16 GiB' or '2GB'")
    number, prefix, binary = match.groups()
    power = "KMGTPE".find(prefix) + 1 if prefix else 0
    value = float(number) * ((1024 if binary else 1000) ** power)
    if value <= 0:
        raise ValueError(f"a memory size must be positive, got {size!r}")
    return int(value)

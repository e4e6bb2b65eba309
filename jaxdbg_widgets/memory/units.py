"""Byte counts in human units (binary prefixes), the same in Python and in ``js/memory_model.js``."""

from __future__ import annotations

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

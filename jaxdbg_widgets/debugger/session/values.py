"""Bounded text for any value from the user's program: reprs that cannot flood or crash, array summaries.

Everything here returns plain strings, numbers and dicts, so the session can hand the results
to any front end (widget, text, JSON) without keeping the values alive.
"""

from __future__ import annotations

import pprint
import re
import reprlib
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np

if TYPE_CHECKING:
    from jaxdbg_widgets.debugger.schema import ArrayStatistics, ArraySummary

RESULT_LIMIT = 4_000
CELL_LIMIT = 160
PREVIEW_ITEMS = 6

_NOTE = re.compile(r"\.\.\. \[([\d,]+) more characters\]\Z")

_short_repr = reprlib.Repr()
_short_repr.maxlevel = 3
_short_repr.maxlist = _short_repr.maxtuple = _short_repr.maxdict = _short_repr.maxset = 8
_short_repr.maxstring = _short_repr.maxother = CELL_LIMIT


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, saying exactly how many were left out.

    The cut falls after a space, comma or line break when one is near, so numbers stay whole;
    cutting an already cut text again counts what both cuts left out.
    """
    if len(text) <= limit:
        return text
    earlier = _NOTE.search(text)
    left_out = 0
    if earlier is not None:
        text, left_out = text[: earlier.start()], int(earlier.group(1).replace(",", ""))
    total = len(text) + left_out
    room = max(0, limit - len(_note(total)))
    room = max(0, limit - len(_note(total - room)))
    boundary = max(text.rfind(sep, 0, room + 1) for sep in (" ", ",", "\n"))
    keep = boundary + 1 if boundary >= room // 2 else room
    return text[:keep] + _note(total - keep)


def _note(left_out: int) -> str:
    return f"... [{left_out:,} more characters]"


def describe_error(error: BaseException) -> str:
    """One line naming the exception type and its message, like the CLI's ``*** Error: msg``."""
    name = type(error).__name__
    try:
        message = str(error)
    except Exception:
        message = "<exception message could not be shown>"
    return truncate(f"{name}: {message}" if message else name, RESULT_LIMIT)


def safe_repr(value: Any, limit: int = RESULT_LIMIT, *, pretty: bool = False) -> str:
    """``repr`` (or ``pprint``) of ``value``, cut to ``limit``; a raising ``__repr__`` is reported."""
    try:
        text = pprint.pformat(value) if pretty else repr(value)
    except Exception as err:
        return f"<repr of {type_name(value)} failed: {describe_error(err)}>"
    return truncate(text, limit)


def short_repr(value: Any) -> str:
    """A one-line repr for a table cell, bounded in time and size even for huge containers."""
    try:
        text = _short_repr.repr(value)
    except Exception as err:
        return f"<repr of {type_name(value)} failed: {describe_error(err)}>"
    return truncate(" ".join(text.split()), CELL_LIMIT)


_SHORT_NAMES = {"ArrayImpl": "Array"}
"""Implementation classes shown by the name users know them by."""


def type_name(value: Any) -> str:
    """The value's short class name (``Array``, ``ndarray``, ``dict``), readable in a narrow table."""
    name = type(value).__qualname__
    return _SHORT_NAMES.get(name, name)


def is_array(value: Any) -> bool:
    """Arrays we summarize: numpy arrays and anything array-like with a shape and a dtype."""
    return (
        hasattr(value, "shape")
        and hasattr(value, "dtype")
        and hasattr(value, "__array__")
        and not isinstance(value, type)
    )


def array_summary(value: Any) -> ArraySummary:
    """Shape, dtype, min, max, mean, std, NaN and Inf counts and a short preview of an array."""
    try:
        data = np.asarray(value)
    except Exception as err:
        return {"shape": _shape_of(value), "dtype": str(value.dtype), "error": describe_error(err)}
    return {
        "shape": list(data.shape),
        "dtype": str(data.dtype),
        "size": int(data.size),
        **_statistics(data),
        "preview": _preview(data),
    }


def _shape_of(value: Any) -> list[int] | None:
    try:
        return [int(d) for d in value.shape]
    except Exception:
        return None


def _numeric(dtype: np.dtype) -> bool:
    """Numbers and booleans, including ``ml_dtypes``' bfloat16, float8 and int4 (kind ``V``)."""
    if np.issubdtype(dtype, np.number) or np.issubdtype(dtype, np.bool_):
        return True
    for info in (ml_dtypes.finfo, ml_dtypes.iinfo):
        try:
            info(dtype)
        except (TypeError, ValueError):
            continue
        return True
    return False


def _statistics(data: np.ndarray) -> ArrayStatistics:
    """Min, max, mean, std of the finite values and NaN/Inf counts, computed in float64."""
    if data.size == 0 or not _numeric(data.dtype):
        return {}
    if np.issubdtype(data.dtype, np.complexfloating):
        return {"nan": int(np.isnan(data).sum()), "inf": int(np.isinf(data).sum())}
    values = data.astype(np.float64, copy=False)
    finite = np.isfinite(values)
    stats: ArrayStatistics = {
        "nan": int(np.isnan(values).sum()),
        "inf": int(np.isinf(values).sum()),
    }
    if finite.any():
        kept = values[finite] if not finite.all() else values
        stats["min"] = _number(kept.min())
        stats["max"] = _number(kept.max())
        stats["mean"] = _number(kept.mean())
        stats["std"] = _number(kept.std())
    return stats


def _number(x: Any) -> float | int:
    value = float(x)
    return int(value) if value.is_integer() and abs(value) < 2**53 else float(f"{value:.6g}")


def _preview(data: np.ndarray) -> str:
    flat = data.reshape(-1)
    shown = np.array2string(flat[:PREVIEW_ITEMS], precision=4, separator=", ", threshold=10)
    if flat.size > PREVIEW_ITEMS:
        shown = shown[:-1] + ", ...]"
    return truncate(shown, CELL_LIMIT)


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as one line of text, for transcripts and the static HTML view."""
    parts = [f"{summary['dtype']}{summary['shape']}"]
    for key in ("min", "max", "mean", "std"):
        if key in summary:
            parts.append(f"{key}={summary[key]}")
    for key in ("nan", "inf"):
        if summary.get(key):
            parts.append(f"{key}={summary[key]}")
    if "preview" in summary:
        parts.append(summary["preview"])
    if "error" in summary:
        parts.append(summary["error"])
    return " ".join(parts)

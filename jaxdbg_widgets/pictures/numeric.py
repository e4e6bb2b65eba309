"""What a picture draws from an array of any dtype: a NumPy array of plain numbers.

NumPy's own bool, integer and float dtypes pass through; the narrow dtypes JAX brings through
``ml_dtypes`` (bfloat16, the float8 variants, int4 and friends, all of NumPy kind ``V``) are
widened without loss to float32 or int8/uint8; complex values become their magnitude, or their
phase in radians on request.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import numpy as np

ComplexPart = Literal["magnitude", "phase"]


class Numeric(NamedTuple):
    """The numbers to draw, the original dtype's name, and what was taken of complex values."""

    values: np.ndarray
    dtype: str
    kind: Literal["bool", "int", "float"]
    part: ComplexPart | None


def host_array(x: Any) -> np.ndarray:
    """The array as NumPy, copied from the device once (``np.asarray`` of a ``jax.Array``)."""
    return np.asarray(x)


def numeric(array: np.ndarray, complex_part: ComplexPart = "magnitude") -> Numeric:
    """Widen ``array`` to a dtype NumPy computes with, keeping every value exactly."""
    dtype = array.dtype
    name = str(dtype)
    if dtype == np.bool_:
        return Numeric(array, name, "bool", None)
    if np.issubdtype(dtype, np.complexfloating):
        if complex_part not in ("magnitude", "phase"):
            raise ValueError(f"complex_part must be 'magnitude' or 'phase', got {complex_part!r}")
        part = np.abs(array) if complex_part == "magnitude" else np.angle(array)
        return Numeric(part, name, "float", complex_part)
    if np.issubdtype(dtype, np.integer):
        return Numeric(array, name, "int", None)
    if np.issubdtype(dtype, np.floating):
        return Numeric(array, name, "float", None)
    return _narrow(array, name)


def _narrow(array: np.ndarray, name: str) -> Numeric:
    """An ``ml_dtypes`` array (bfloat16, float8_*, int4, uint4, ...) widened without loss."""
    import ml_dtypes

    try:
        info = ml_dtypes.iinfo(array.dtype)
    except (TypeError, ValueError):
        info = None
    if info is not None:
        wide = np.int8 if info.min < 0 else np.uint8
        return Numeric(array.astype(wide), name, "int", None)
    try:
        ml_dtypes.finfo(array.dtype)
    except (TypeError, ValueError):
        raise TypeError(f"cannot draw an array of dtype {name}") from None
    return Numeric(array.astype(np.float32), name, "float", None)

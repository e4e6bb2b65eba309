"""Counts and first positions of NaN, +Inf and -Inf in one array, read on the host."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

FIRST_INDICES = 5
"""How many positions of each kind a summary keeps."""


@dataclass(frozen=True)
class ValueSummary:
    """One array's shape, dtype and where its NaN, +Inf and -Inf values are."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    nan: int = 0
    posinf: int = 0
    neginf: int = 0
    first_nan: tuple[tuple[int, ...], ...] = ()
    first_posinf: tuple[tuple[int, ...], ...] = ()
    first_neginf: tuple[tuple[int, ...], ...] = ()
    key: bool = False
    """Typed PRNG keys (``dtype`` is then ``key<fry>`` and so on): never NaN or infinite."""

    @property
    def finite(self) -> bool:
        """Whether no element is NaN or infinite."""
        return not (self.nan or self.posinf or self.neginf)

    def describe(self) -> str:
        """``x f32[4]: 2 NaN at (1,), (3,)``; ``finite`` when all elements are."""
        head = f"{self.name} {self.dtype}{list(self.shape)}"
        if self.key:
            return f"{head}: PRNG keys, never NaN"
        if self.finite:
            return f"{head}: finite"
        parts = []
        for label, count, first in (
            ("NaN", self.nan, self.first_nan),
            ("+Inf", self.posinf, self.first_posinf),
            ("-Inf", self.neginf, self.first_neginf),
        ):
            if count:
                where = ", ".join(_index_text(i) for i in first)
                more = ", ..." if count > len(first) else ""
                parts.append(f"{count} {label} at {where}{more}")
        return f"{head}: " + "; ".join(parts)


def _index_text(index: tuple[int, ...]) -> str:
    return (
        "()"
        if not index
        else "(" + ", ".join(str(i) for i in index) + ("," if len(index) == 1 else "") + ")"
    )


def _first(mask: np.ndarray) -> tuple[tuple[int, ...], ...]:
    flat = np.flatnonzero(mask.ravel())[:FIRST_INDICES]
    return tuple(tuple(int(i) for i in np.unravel_index(k, mask.shape)) for k in flat)


def is_inexact(value: Any) -> bool:
    """Whether ``value`` has a floating or complex dtype, the only kinds that can be non-finite.

    JAX's test, not NumPy's: ``np.issubdtype(bfloat16, np.inexact)`` is False for bfloat16 and
    the float8 types (they come from ml_dtypes), and they must be checked like float32. A
    Python float (a literal such as a mask's ``-inf`` in some JAX versions' programs) counts.
    """
    if isinstance(value, (float, complex)):
        return True
    dtype = getattr(value, "dtype", None)
    return dtype is not None and bool(jnp.issubdtype(dtype, jnp.inexact))


def is_key(value: Any) -> bool:
    """Whether ``value`` holds typed PRNG keys (``jax.random.key``), whose extended dtype
    NumPy cannot hold; they are never NaN, so the search skips them."""
    dtype = getattr(value, "dtype", None)
    return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)


def host_value(value: Any) -> Any:
    """``value`` as a NumPy array on the host; typed PRNG keys (NumPy cannot hold them) as
    keys again over their data read on the host, so indexing them ignores any sharding."""
    if is_key(value):
        data = np.asarray(jax.random.key_data(value))
        return jax.random.wrap_key_data(data, impl=jax.random.key_impl(value))
    return np.asarray(value)


def summarize(name: str, value: Any) -> ValueSummary:
    """The summary of ``value`` (an array or scalar); integer and boolean arrays are finite,
    typed PRNG keys are summarized as keys."""
    if is_key(value):
        return ValueSummary(name, tuple(value.shape), str(value.dtype), key=True)
    array = np.asarray(value)
    shape, dtype = tuple(array.shape), _dtype_text(array.dtype)
    if not is_inexact(array):
        return ValueSummary(name, shape, dtype)
    parts = [array.real, array.imag] if np.iscomplexobj(array) else [array]
    nan = np.logical_or.reduce([np.isnan(p) for p in parts])
    posinf = np.logical_or.reduce([np.isposinf(p) for p in parts])
    neginf = np.logical_or.reduce([np.isneginf(p) for p in parts])
    return ValueSummary(
        name,
        shape,
        dtype,
        int(nan.sum()),
        int(posinf.sum()),
        int(neginf.sum()),
        _first(nan),
        _first(posinf),
        _first(neginf),
    )


_SHORT = {"float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16"}


def _dtype_text(dtype: np.dtype) -> str:
    return _SHORT.get(dtype.name, dtype.name)

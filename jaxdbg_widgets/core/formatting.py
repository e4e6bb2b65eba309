"""Format strings of ``print``/``log``: the trace-time check and the host-side rendering."""

from __future__ import annotations

import string
from typing import Any

import jax
import numpy as np


class _UsageChecker(string.Formatter):
    """Walks a format string without formatting, to catch unused (f-string) arguments."""

    def __init__(self, name: str) -> None:
        self.name = name

    def format_field(self, value: Any, format_spec: str) -> str:
        return ""

    def check_unused_args(self, used_args, args, kwargs) -> None:
        unused = [arg for i, arg in enumerate(args) if i not in used_args]
        if unused:
            raise ValueError(f"Unused positional arguments to `{self.name}`: {unused}")
        unused_names = [key for key in kwargs if key not in used_args]
        if unused_names:
            raise ValueError(
                f"Unused keyword arguments to `{self.name}`: {unused_names}. "
                f'You may be passing an f-string (i.e, `f"{{x}}"`) into `{self.name}` '
                "and instead should pass in a regular string."
            )


def check_format(name: str, fmt: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise what ``jax.debug.print`` raises for these arguments, naming ``name``.

    ``ValueError`` when arguments are unused by ``fmt`` (the f-string mistake); a ``fmt`` that
    is not a string fails in ``string.Formatter`` itself (``TypeError: expected str, got int``).
    """
    _UsageChecker(name).format(fmt, *args, **kwargs)


def require_format_string(name: str, fmt: Any) -> None:
    """Raise a ``TypeError`` naming ``name`` when ``fmt`` is not a string."""
    if not isinstance(fmt, str):
        raise TypeError(f"`{name}` needs a format string, but got {type(fmt).__name__}")


def has_placeholders(fmt: str) -> bool:
    """Whether ``fmt`` has a replacement field anywhere (escaped braces ``{{`` are not one)."""
    return any(field is not None for _, field, _, _ in string.Formatter().parse(fmt))


def _literal(fmt: str) -> str:
    """``fmt`` without replacement fields, its escaped braces turned into single ones."""
    if "{" not in fmt and "}" not in fmt:
        return fmt
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(fmt))


def _plain_fields(fmt: str) -> bool:
    """Whether every field of ``fmt`` is a bare name or index, formatted with ``str``/spec."""
    for _, field, spec, conversion in string.Formatter().parse(fmt):
        if field is None:
            continue
        if conversion not in (None, "s") or "{" in (spec or ""):
            return False
        if "." in field or "[" in field:
            return False
    return True


def same_as_numpy(
    fmt: str, placeholders: bool, args: tuple[Any, ...], kwargs: dict[str, Any], is_leaf
) -> bool:
    """Whether ``fmt`` renders numpy arrays exactly as it renders JAX arrays.

    True when each argument is a single array or a non-pytree value and each field formats it
    directly (no ``!r``, attribute or index access): then only ``str``/``format`` of the arrays
    is used, and a JAX array delegates both to its numpy value.
    """
    if placeholders and not _plain_fields(fmt):
        return False
    return all(is_leaf(value) for value in (*args, *kwargs.values()))


def render(
    fmt: str,
    placeholders: bool,
    printoptions: dict[str, Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> str:
    """The printed text, under the numpy print options captured at trace time."""
    if not placeholders:
        return " ".join((_literal(fmt), *(str(a) for a in args)))
    with np.printoptions(**printoptions):
        return fmt.format(*args, **kwargs)


_DTYPE_CODES = {"float": "f", "int": "i", "uint": "u", "complex": "c", "bool": "bool"}


def _dtype_code(dtype: np.dtype) -> str:
    name = dtype.name
    for prefix, code in _DTYPE_CODES.items():
        if name.startswith(prefix):
            return name if code == "bool" else code + name[len(prefix) :]
    return name


def summarize(value: Any, width: int = 60) -> str:
    """A short description such as ``f32[3] min=0 max=2``, for print logs."""
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        text = repr(value)
        return text if len(text) <= width else text[: width - 3] + "..."
    if jax.dtypes.issubdtype(dtype, jax.dtypes.extended):
        return f"{dtype}[{','.join(map(str, shape))}]"
    array = np.asarray(value)
    head = f"{_dtype_code(array.dtype)}[{','.join(map(str, array.shape))}]"
    if array.size == 0:
        return head
    if array.size == 1:
        return f"{head} {array.reshape(())}"
    if array.dtype.kind == "b":
        return f"{head} true={int(array.sum())}"
    if array.dtype.kind in "iuf":
        return f"{head} min={array.min():g} max={array.max():g}"
    return head

"""``find_nonfinite``, the public entry point: the search with its progress shown where the
code runs (the cell, or the terminal), and the report with its views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.nans.display import NonfiniteReportView
from jaxdbg_widgets.nans.locate import require_evaluation, search_call
from jaxdbg_widgets.nans.progress_view import progress_sink
from jaxdbg_widgets.nans.validation import split_arguments


def find_nonfinite(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> NonfiniteReportView:
    """Run ``fun(*args, **kwargs)`` equation by equation and report where a NaN or Inf first appears.

    When the first non-finite value is an infinity, the report also names the first NaN
    (an infinite derivative often turns into a NaN gradient only in the backward pass).

    ``fun`` is any JAX-transformable callable (``jit``, ``grad``, ``vmap``, ``shard_map`` and
    their compositions). Prints and callbacks inside are not run; the report lists them.
    Leaves of the arguments that are not arrays (an equinox module's activation function)
    are passed as they are, as ``eqx.filter_jit`` does.
    """
    if not callable(fun):
        raise TypeError(f"find_nonfinite needs a callable, got {type(fun).__name__}")
    require_evaluation()
    name = getattr(fun, "__name__", None) or type(fun).__name__
    arguments = split_arguments(fun, args, kwargs)
    return NonfiniteReportView.of(search_call(name, arguments, progress_sink()))

"""The public sharding functions: JAX's signatures, shown as a widget in a notebook, text elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jax.debug import inspect_array_sharding as _jax_inspect_array_sharding

from jaxdbg_widgets import _display
from jaxdbg_widgets.sharding.bulk import collector_paused
from jaxdbg_widgets.sharding.colors import ColorMap
from jaxdbg_widgets.sharding.html import render_html
from jaxdbg_widgets.sharding.layout import shape_and_sharding, sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.text import print_text, render_text


def sharding_text(
    shape: Any, sharding: Any = None, *, dtype: Any = None, header: bool = False, **options: Any
) -> str:
    """The text diagram as a string (ANSI colour codes only with ``use_color=True``).

    Takes ``(shape, sharding)`` or an array alone (its shape, sharding and dtype), like every
    sharding view. ``header=True`` adds the header line above it: mesh axis types, the spec's unreduced and
    reduced axes and the replication, which JAX's own diagram leaves out.
    """
    if not isinstance(header, bool):
        raise TypeError(f"header must be True or False, got {header!r}")
    checked = RenderOptions(**options)
    with collector_paused():
        layout = sharding_layout(shape, sharding, dtype=dtype)
        return render_text(layout, checked, header=header)


def sharding_html(shape: Any, sharding: Any = None, *, dtype: Any = None, **options: Any) -> str:
    """The static, deterministic HTML diagram of ``(shape, sharding)`` or of an array alone."""
    checked = RenderOptions(**options)
    with collector_paused():
        return render_html(sharding_layout(shape, sharding, dtype=dtype), checked)


def visualize_sharding(
    shape: Any,
    sharding: Any = None,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: ColorMap = None,
    rows: int | None = None,
    cols: int | None = None,
    dtype: Any = None,
) -> None:
    """Show how ``sharding`` splits an array of ``shape``: an interactive diagram in a notebook
    (one standalone HTML output, drawn again after a save, restart or reload), text otherwise.

    ``shape`` may be the array itself (its shape, sharding and dtype are used). Any rank works;
    ``rows``/``cols`` choose the dimensions drawn down and across above rank 2.
    """
    options = RenderOptions(use_color, scale, min_width, max_width, color_map, rows, cols)
    shape, sharding, dtype = shape_and_sharding(shape, sharding, dtype)
    if _display.in_notebook():
        from IPython.display import display

        from jaxdbg_widgets.sharding.standalone import standalone_diagram

        display(standalone_diagram(shape, sharding, dtype=dtype, options=options))
    else:
        print_text(sharding_layout(shape, sharding, dtype=dtype), options)


def visualize_array_sharding(arr: Any, **options: Any) -> None:
    """Show an array's sharding; inside ``jit`` it shows the compiled sharding at compile time."""
    dtype = options.pop("dtype", arr.dtype)
    checked = RenderOptions(**options).__dict__

    def show(sharding: Any) -> None:
        visualize_sharding(arr.shape, sharding, dtype=dtype, **checked)

    inspect_array_sharding(arr, callback=show)


def inspect_array_sharding(value: Any, *, callback: Callable[[Any], None]) -> None:
    """Call ``callback`` with the sharding of every array in the pytree ``value``.

    Eagerly it fires at once; inside ``jit`` it fires when the function is compiled (not on
    cached calls), like ``jax.debug.inspect_array_sharding``.
    """
    if not callable(callback):
        raise TypeError(f"callback must be callable, got {type(callback).__name__}")
    _jax_inspect_array_sharding(value, callback=callback)

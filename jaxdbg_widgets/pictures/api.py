"""``show``: the one public entry point of the picture layer."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.pictures.colors import lut
from jaxdbg_widgets.pictures.display import Pictures
from jaxdbg_widgets.pictures.model import PictureOptions, build_pictures


def show(x: Any, **options: Any) -> Pictures:
    """Every array as a picture: a ``jax.Array``, a NumPy array or a pytree of them (one
    picture per leaf, labelled with its path).

    0-D shows the value, 1-D a strip (``line=True`` adds a line plot), 2-D a heatmap, and
    higher ranks the two trailing axes as the grid with the leading ones as facets
    (``leading="facets"``, the first ``max_facets``) or sliders (``leading="sliders"``).
    Signed data gets a diverging map centred at 0, other data ``viridis``; ``cmap`` (any
    matplotlib name), ``vmin`` and ``vmax`` override. NaN, +Inf and -Inf each get a colour the
    map does not use, with counts. Complex values are drawn as magnitude
    (``complex_part="phase"`` for phase). Large arrays are block-reduced in the kernel to
    ``budget`` cells (a block holding NaN/Inf shows it); hovering fetches the exact value.
    Sharded arrays show their shard boundaries and devices. Call it outside ``jit``: tracers
    raise TypeError. The result displays as a widget in a notebook, static HTML when saved,
    and text in a terminal; ``display(show(x))`` shows it mid-cell.
    """
    chosen = PictureOptions(**options)
    if chosen.cmap is not None:
        lut(chosen.cmap)  # an unknown name is refused before any work
    return build_pictures(x, chosen, kind=Pictures)

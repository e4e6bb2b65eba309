"""One leaf's sharding diagram in the memory map: the view model the leaf pane draws."""

from __future__ import annotations

import dataclasses

from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.schema import LeafView
from jaxdbg_widgets.sharding.layout import sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions
from jaxdbg_widgets.sharding.view import view_model


def leaf_diagram(memory: MemoryLayout, position: int) -> LeafView:
    """The sharding view model of leaf ``position``, tagged with its position.

    The leaf's dtype name and item size are the ones the map already read, so dtypes numpy
    does not know (typed PRNG keys such as ``key<fry>``) draw as well.
    """
    leaf = memory.leaves[position]
    group = memory.groups[leaf.group]
    layout = dataclasses.replace(
        sharding_layout(leaf.shape, group.sharding), dtype=leaf.dtype, itemsize=leaf.itemsize
    )
    return {"leaf": position, **view_model(layout, RenderOptions())}

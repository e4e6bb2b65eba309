"""Diagrams of a ``Mesh`` or a ``NamedSharding`` on their own, with no array to size them."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from jaxdbg_widgets.sharding.html import render_html
from jaxdbg_widgets.sharding.layout import ShardingLayout, sharding_layout
from jaxdbg_widgets.sharding.options import RenderOptions


def named_sharding_layout(sharding: Any) -> ShardingLayout:
    """A NamedSharding drawn over the smallest shape it splits evenly (one unit per split)."""
    sizes = dict(sharding.mesh.shape)
    shape = tuple(math.prod(sizes[axis] for axis in _axes(entry)) for entry in tuple(sharding.spec))
    return sharding_layout(shape, sharding, nominal_shape=True)


def mesh_layout(mesh: Any) -> ShardingLayout:
    """A Mesh as a grid with one cell per device, its axes drawn as the grid's dimensions."""
    from jax.sharding import NamedSharding, PartitionSpec

    sharding = NamedSharding(mesh, PartitionSpec(*mesh.axis_names))
    layout = sharding_layout(tuple(mesh.devices.shape), sharding, nominal_shape=True)
    return dataclasses.replace(layout, kind="Mesh")


def named_sharding_html(sharding: Any, **options: Any) -> str:
    return render_html(named_sharding_layout(sharding), RenderOptions(**options))


def mesh_html(mesh: Any, **options: Any) -> str:
    return render_html(mesh_layout(mesh), RenderOptions(**options))


def _axes(entry: Any) -> tuple[str, ...]:
    if entry is None:
        return ()
    if isinstance(entry, str):
        return (entry,)
    return tuple(entry) if isinstance(entry, tuple | list) else ()

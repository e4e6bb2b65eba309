"""A hit's place: the one rule that writes its label from its mesh position, device and element."""

from __future__ import annotations

import pytest

from jaxdbg_widgets.core.shard_place import ShardPlace


@pytest.mark.parametrize(
    ("place", "label"),
    [
        (ShardPlace((("x", 3),), "CPU 3"), "CPU 3 (x=3)"),
        (ShardPlace((("x", 1), ("y", 1)), "CPU 5"), "CPU 5 (x=1, y=1)"),
        (ShardPlace((("x", 2),)), "x=2"),
        (ShardPlace((("x", 3),), "CPU 3", 2), "CPU 3 (x=3), vmap element 2"),
        (ShardPlace(element=4), "vmap element 4"),
        (ShardPlace((("_internal_pmap_axis_name", 6),)), "pmap index 6"),
        (ShardPlace(device="TPU 1"), "TPU 1"),
    ],
)
def test_labels(place, label):
    assert place.label == label


def test_order_is_mesh_position_then_element():
    places = [ShardPlace((("x", 1),), element=0), ShardPlace((("x", 0),), element=2)]
    assert sorted(places, key=lambda p: p.order) == places[::-1]
    assert ShardPlace((("x", 1),), "CPU 1").with_element(3) == ShardPlace((("x", 1),), "CPU 1", 3)

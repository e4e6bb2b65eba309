"""The sharding view model and widget produce only what ``sharding/schema.py`` declares, and every
key it declares is built."""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.sharding import schema
from jaxdbg_widgets.sharding.stand_in import GridSharding
from jaxdbg_widgets.sharding.widget import ShardingWidget

from ..widget_schema import declared_keys, problems


def _widgets() -> list[ShardingWidget]:
    devices = np.array(jax.devices())
    flat = Mesh(devices, ("x",))
    grid = Mesh(devices.reshape(2, 2, 2), ("a", "b", "c"))
    return [
        ShardingWidget((8, 4), NamedSharding(flat, P("x"))),
        ShardingWidget((8, 4), NamedSharding(flat, P()), use_color=False),
        ShardingWidget((4, 4, 4), NamedSharding(grid, P("a", "b", "c")), dtype=np.float32),
        ShardingWidget((8, 8), GridSharding((2, 4), per_process=2)),
    ]


def test_built_states_match_the_schema_and_cover_it():
    seen: set[str] = set()
    for widget in _widgets():
        model = {"view": widget.view, "selected": widget.selected, "zoom": widget.zoom}
        assert problems(model, schema.ShardingModel, seen=seen) == []
    assert declared_keys(schema.ShardingModel) - seen == set()

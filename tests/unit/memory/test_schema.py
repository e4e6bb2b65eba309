"""The memory view model and widget produce only what ``memory/schema.py`` declares, and every key
it declares is built."""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.memory import memory_map, schema
from jaxdbg_widgets.sharding.stand_in import GridSharding

from ..widget_schema import declared_keys, problems


def _maps():
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    put = lambda shape, spec: jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec))  # noqa: E731
    params = {"w": put((8, 16), P("data", "model")), "embed": put((256, 16), P()), "n": 3}
    lowered = jax.jit(lambda p: jax.tree.map(lambda v: v * 2, p)).lower(params)
    pod = _Leaf((8, 8), GridSharding((2, 4), per_process=2))  # four processes
    return [memory_map(params), memory_map({}), memory_map(lowered), memory_map({"pod": pod})]


@dataclass
class _Leaf:
    shape: tuple
    sharding: object
    dtype: str = "float32"


def test_built_states_match_the_schema_and_cover_it():
    seen: set[str] = set()
    for memory in _maps():
        widget = memory.widget()
        for leaf in range(-1, min(1, len(widget.view["leaves"]))):
            widget.leaf = leaf
            model = {
                name: getattr(widget, name) for name in ("view", "device", "leaf", "leaf_view")
            }
            assert problems(model, schema.MemoryModel, seen=seen) == []
    assert declared_keys(schema.MemoryModel) - seen == set()

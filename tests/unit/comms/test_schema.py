"""The communication view model and widget produce only what ``comms/schema.py`` declares, and
every key it declares is built."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from jaxdbg_widgets.comms import communication_map, communication_map_from_text, schema

from ..widget_schema import declared_keys, problems
from .test_golden import make_mesh, struct
from .test_hlo import MODULE


def _maps():
    mesh = make_mesh((2, 4), ("x", "y"))

    def step(w, x):
        w = jax.lax.with_sharding_constraint(w, NamedSharding(mesh, P()))
        return jnp.tanh(x @ w).sum(0)

    w = struct((64, 32), mesh, P("y", None))
    x = jnp.ones((16, 64))
    return [
        communication_map(jax.jit(step), w, x),
        communication_map_from_text(MODULE, axis_names=("x", "y"), mesh_shape=(2, 4)),
        communication_map(jax.jit(lambda v: v * 2), struct((8,), mesh, P())),
    ]


def test_built_states_match_the_schema_and_cover_it():
    seen: set[str] = set()
    for comms in _maps():
        widget = comms.widget()
        for line in range(-1, len(widget.view["lines"])):
            widget.line = line
            model = {name: getattr(widget, name) for name in ("view", "line", "line_view")}
            assert problems(model, schema.CommsModel, seen=seen) == []
    one_process = {"ShardingView.process_edges"}  # only grids that span processes have them
    assert declared_keys(schema.CommsModel) - seen - one_process == set()

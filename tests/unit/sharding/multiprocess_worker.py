"""One of two ``jax.distributed`` CPU processes: builds a global array and prints its layout."""

import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxdbg_widgets as jdw
from jaxdbg_widgets.memory.gathered import plain_placement

process_id, port = int(sys.argv[1]), sys.argv[2]
jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=process_id)
mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("x", "y"))
sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
data = np.arange(16.0).reshape(4, 4)
arr = jax.make_array_from_callback((4, 4), sharding, lambda index: data[index])
widget = jdw.ShardingWidget.from_array(arr)
print(
    json.dumps(
        {
            "local": [d.id for d in jax.local_devices()],
            "cells": [[c.device_ids, c.process_indices] for c in widget.layout.cells],
            "html": widget.to_html(),
            "text": jdw.sharding_text(arr.shape, arr.sharding, use_color=False),
            "edges": widget.view["process_edges"],
            "placement": plain_placement(arr.sharding, arr.shape),
        }
    ),
    flush=True,
)
jax.distributed.shutdown()

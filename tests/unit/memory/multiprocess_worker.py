"""One of two ``jax.distributed`` CPU processes: builds global arrays and prints their memory map."""

import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxdbg_widgets as jdw
from jaxdbg_widgets.memory.gathered import process_part
from jaxdbg_widgets.memory.model import build_memory_map

process_id, port = int(sys.argv[1]), sys.argv[2]
jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=process_id)
mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("x", "y"))


def global_array(shape, spec):
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    sharding = NamedSharding(mesh, spec)
    return jax.make_array_from_callback(shape, sharding, lambda index: data[index])


params = {
    "w": global_array((4, 4), PartitionSpec("x", "y")),
    "b": global_array((8,), PartitionSpec()),
}
memory = jdw.memory_map(params)
own = jax.device_put(np.ones(process_id + 2, np.float32), jax.local_devices()[0])
part = process_part(
    build_memory_map(
        [("params['w']", params["w"]), ("params['b']", params["b"]), ("own", own)],
        source="pytree",
        devices=jax.devices(),
    ),
    jax.process_index(),
)
print(
    json.dumps(
        {
            "local": [d.id for d in jax.local_devices()],
            "devices": [[d.id, d.process_index, d.bytes] for d in memory.devices],
            "processes": {str(p): b for p, b in memory.process_totals().items()},
            "html": memory.to_html(),
            "part": part,
            "own_device": own.devices().pop().id,
        }
    ),
    flush=True,
)
jax.distributed.shutdown()

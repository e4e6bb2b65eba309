"""Writes the saved HLO text of an FSDP-style gradient step (the reader's fixtures).

Run with each JAX to add its text: ``python tests/unit/comms/hlo/fsdp_scan.py OUT.txt``.
Paths are written as ``fsdp_scan.py`` so the text does not depend on the checkout.
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

AxisType = getattr(jax.sharding, "AxisType", None)
auto = {"axis_types": (AxisType.Auto,) * 2} if AxisType else {}
mesh = jax.make_mesh((2, 4), ("data", "fsdp"), **auto)
whole = NamedSharding(mesh, P())


def loss(ws, x):
    def layer(h, w):
        w = jax.lax.with_sharding_constraint(w, whole)  # gather-weights
        return jnp.tanh(h @ w), None  # layer-matmul

    h, _ = jax.lax.scan(layer, x, ws)  # scan-call
    return jnp.mean(h**2)


def main(out: str) -> None:
    ws = jax.ShapeDtypeStruct(
        (6, 64, 64), jnp.float32, sharding=NamedSharding(mesh, P(None, "fsdp"))
    )
    x = jax.ShapeDtypeStruct((16, 64), jnp.float32, sharding=NamedSharding(mesh, P("data", None)))
    text = jax.jit(jax.grad(loss)).lower(ws, x).compile().as_text()
    with open(out, "w", encoding="utf-8") as f:
        f.write(text.replace(os.path.abspath(__file__), "fsdp_scan.py"))


if __name__ == "__main__":
    main(sys.argv[1])

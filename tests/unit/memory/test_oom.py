"""The live arrays after an out-of-memory error: largest per device first, with every variable
that holds each, per-device bytes from the sharding, and only JAX's RESOURCE_EXHAUSTED counted."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets.memory import oom


def test_live_arrays_are_largest_first_and_named_by_every_holder():
    mesh = Mesh(np.array(jax.devices()[:8]), ("d",))
    sharded = jax.device_put(jnp.ones((64, 1024)), NamedSharding(mesh, PartitionSpec("d")))
    whole = jnp.ones((32, 1024))
    namespace = {"sharded": sharded, "whole": whole, "params": {"w": whole}, "_hidden": whole}
    report = oom.live_arrays(namespace)
    mine = {a.names: a for a in report.arrays if a.names}
    by_name = {name: a for a in mine.values() for name in a.names}
    assert by_name["whole"].names == ("whole", "params['w']")
    assert by_name["whole"].bytes_per_device == whole.nbytes
    assert by_name["sharded"].bytes_per_device == sharded.nbytes // 8
    assert by_name["sharded"].devices == 8
    sizes = [a.bytes_per_device for a in report.arrays]
    assert sizes == sorted(sizes, reverse=True)
    assert "whole, params['w']" in report.to_text()
    assert "_hidden" not in report.to_text()


def test_deleted_arrays_are_not_listed():
    gone = jnp.ones((123, 7))
    gone.delete()
    assert all(a.shape != (123, 7) for a in oom.live_arrays({"gone": gone}).arrays)


def test_only_resource_exhausted_counts_as_out_of_memory():
    from jax.errors import JaxRuntimeError

    assert oom.is_out_of_memory(JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating"))
    assert not oom.is_out_of_memory(JaxRuntimeError("INVALID_ARGUMENT: bad"))

"""In a real kernel, ``jax.debug.breakpoint(backend="cli")`` with the extension loaded hands the
CLI exactly the frames plain JAX hands it (IPython, ipykernel, asyncio and tornado included)."""

import pytest

pytestmark = pytest.mark.kernel

BEFORE_LOADING = "import io, jax\nplain = jax.debug.breakpoint"

BOTH = """
shown = []
def stop(x, breakpoint):
    breakpoint(backend="cli", stdin=io.StringIO("w\\nc\\n"), stdout=shown[-1])
    return x
for breakpoint in (plain, jax.debug.breakpoint):
    shown.append(io.StringIO())
    jax.jit(lambda x: stop(x, breakpoint))(1.0).block_until_ready()
jax.effects_barrier()
theirs, ours = (stream.getvalue() for stream in shown)
print(jax.debug.breakpoint is plain, theirs.count("  File "), ours == theirs)
"""


def test_cli_gets_plain_jaxs_frames_and_where_reads_the_same(kernel):
    assert kernel.execute(BEFORE_LOADING).error is None
    assert kernel.execute("%load_ext jaxdbg").error is None
    result = kernel.execute(BOTH)
    assert result.error is None, result.error
    routed, frames, same = result.stdout.split()
    assert routed == "False", "the extension routes jax.debug.breakpoint"
    assert int(frames) > 10, "a cell runs under IPython's, ipykernel's and asyncio's frames"
    assert same == "True"

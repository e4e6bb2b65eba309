"""``%load_ext jaxdbg`` and ``%jaxdbg status`` inside a real ipykernel with 8 simulated devices."""

import json
from importlib.metadata import version

import pytest

pytestmark = pytest.mark.kernel

_IPYKERNEL = tuple(int(part) for part in version("ipykernel").split(".")[:2])
TIER = "subshell" if _IPYKERNEL >= (7, 4) else "pump"

REGISTRY = (
    "import json; from jaxdbg_widgets.core import jax_registry;"
    "print(json.dumps(sorted((n, p) for n, (p, _) in jax_registry.snapshot().items())))"
)


def _registry(kernel):
    result = kernel.execute(REGISTRY)
    assert result.error is None, result.error
    return json.loads(result.stdout)


def test_load_status_unload(kernel):
    before = _registry(kernel)

    loaded = kernel.execute("%load_ext jaxdbg")
    assert loaded.error is None
    assert loaded.stdout.startswith("jaxdbg ") and loaded.stdout.count("\n") == 1

    status = kernel.execute("%jaxdbg status")
    assert status.error is None
    assert "ipykernel" in status.stdout
    assert "devices            8: CPU 0-7 (process 0)" in status.stdout
    assert f"widget transport   {TIER}" in status.stdout
    kernel_side = [line for line in status.stdout.splitlines() if line.startswith("  ipy")]
    assert kernel_side and all(line.endswith(": ok") for line in kernel_side), status.stdout
    assert "this request       headless" in status.stdout  # jupyter_client sends allow_stdin=False

    kernel.execute("%unload_ext jaxdbg")
    assert _registry(kernel) == before
    gone = kernel.execute("%jaxdbg status")
    assert "UsageError: Line magic function `%jaxdbg` not found" in gone.stderr + str(gone.error)


def test_stdin_request_reports_the_widget_tier(kernel):
    kernel.execute("%load_ext jaxdbg")
    status = kernel.execute("%jaxdbg status", allow_stdin=True)
    assert f"this request       {TIER}" in status.stdout
    answered = kernel.execute("%jaxdbg headless", allow_stdin=True)
    assert (
        answered.stdout
        == "headless policy: continue (not now: a breakpoint here waits for your answer)\n"
    )
    unanswered = kernel.execute("%jaxdbg headless")
    assert (
        unanswered.stdout
        == "headless policy: continue (applies now: no front end can answer here)\n"
    )


def test_wrong_usage_leaves_the_kernel_usable(kernel):
    kernel.execute("%load_ext jaxdbg")
    wrong = kernel.execute("%jaxdbg headless sometimes")
    assert wrong.error is None
    assert wrong.stderr.startswith("%jaxdbg: unknown headless policy 'sometimes'")
    assert kernel.execute("print(1 + 1)").stdout == "2\n"

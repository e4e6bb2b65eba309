"""One kernel's whole day on the Python it runs (Colab's 3.13 in `.ci/colab.sh`): load, a print
inside `jit`, a breakpoint answered by clicks on the main thread and on an XLA worker thread,
one answered at the typed prompt, and unload."""

from __future__ import annotations

import sys
import textwrap

import pytest

from tests.fixtures.kernel import KernelSession
from tests.kernel.test_debugger_kernel import SETUP, Debugging

pytestmark = pytest.mark.kernel


def test_load_print_click_on_both_threads_type_and_unload(kernel: KernelSession) -> None:
    loaded = kernel.execute(
        "import sys\nprint(sys.version_info[:2])\n" + textwrap.dedent(SETUP), timeout=120
    )
    assert loaded.error is None, loaded.error
    assert f"{tuple(sys.version_info[:2])}" in loaded.stdout, "the kernel runs this Python"
    assert "ProbeOverrun" not in loaded.stdout, loaded.stdout

    printed = kernel.execute(
        "import jaxdbg_widgets as jdw\n"
        "jax.jit(lambda x: jdw.print('x = {x}', x=x))(jnp.arange(3))\n"
        "jax.effects_barrier()"
    )
    assert printed.error is None, printed.error
    assert "x = [0 1 2]" in printed.stdout

    main = Debugging(kernel, "print(jax.jit(outer)(jnp.arange(4.0)))")
    assert main.view["header"]["thread"] == "main thread"
    assert main.command("p y.shape")["transcript"][-1]["output"] == "(4,)"
    main.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    assert main.finish().error is None

    worker = Debugging(kernel, "print(jax.jit(outer)(sharded))")
    assert worker.view["header"]["thread"] != "main thread"
    assert worker.command("p y.shape")["transcript"][-1]["output"] == "(16,)"
    worker.send({"type": "command", "line": "c"}, lambda view: view["status"] == "continue")
    assert worker.finish().error is None

    kernel.execute(
        "from jaxdbg_widgets.debugger.transports import capability\n"
        "_tier = capability.widget_tier\n"
        "capability.widget_tier = lambda kernel: None"
    )
    typed = kernel.start("print(jax.jit(outer)(jnp.ones(2)))", allow_stdin=True)
    for answer in ("p y.shape", "c"):
        assert kernel.input_request(typed)["content"]["prompt"] == "(jdb) "
        kernel.client.input(answer)
    kernel.wait(typed)
    assert typed.error is None, typed.error
    assert "(2,)" in typed.stdout and "Continuing." in typed.stdout
    kernel.execute("capability.widget_tier = _tier")

    unloaded = kernel.execute(
        "from jaxdbg_widgets.core import jax_registry\n"
        "%unload_ext jaxdbg\n"
        "print(jax_registry.lookup('jaxdbg').__name__)"
    )
    assert unloaded.error is None, unloaded.error
    assert unloaded.stdout.splitlines()[-1] == "standalone_backend"

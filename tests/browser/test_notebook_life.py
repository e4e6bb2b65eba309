"""The notebook's life in JupyterLab and Notebook 7: saved diagrams draw again after a kernel
restart and a page reload, and a shard session's device selector keeps its keys."""

import pytest

from tests.fixtures.lab import LabPage, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

DIAGRAM_CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp, numpy as np\n"
    "from jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n"
    "mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n"
    "x = jax.device_put(jnp.zeros((8, 16)), NamedSharding(mesh, P('data', 'model')))\n"
    "params = {'w': x, 'b': jax.device_put(jnp.zeros(16), NamedSharding(mesh, P()))}",
    "jax.debug.visualize_array_sharding(x)",
    "%jaxdbg memory params",
]
GRID_CELL = ".jdw-standalone-live .jdw-shw [role='gridcell']"
MEMORY_LEAF = ".jdw-standalone-live .jdw-mem tr[data-leaf] .jdw-mem-leaf"


def _drawn(page) -> None:
    """The interactive diagram and memory map are drawn, not only their static twins."""
    page.wait_for_function(
        "sel => document.querySelectorAll(sel).length === 8", arg=GRID_CELL, timeout=60_000
    )
    page.locator(MEMORY_LEAF).first.wait_for(timeout=60_000)
    assert page.get_by_text("Error displaying widget").count() == 0
    assert page.get_by_text("model not found").count() == 0


def _save(page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.model?.dirty === false",
        timeout=30_000,
    )


def test_saved_diagrams_draw_after_a_kernel_restart_and_a_reload(lab_page: LabPage, tmp_path):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "life.ipynb", DIAGRAM_CELLS))
    lab_page.run_all_cells()
    _drawn(page)
    _save(page)
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()"
    )
    lab_page.wait_kernel_idle()
    page.reload()
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    _drawn(page)
    cell = page.locator(GRID_CELL).nth(5)
    cell.click()  # selection lives in the page: no kernel involved
    assert cell.get_attribute("aria-selected") == "true"
    page.locator(MEMORY_LEAF).last.click()  # the leaf's diagram was carried in the output
    page.locator(".jdw-standalone-live .jdw-mem .jdw-shw").wait_for(timeout=10_000)
    lab_page.screenshot("life-diagrams-after-restart-and-reload")
    assert lab_page.console_errors == []


SHARD_CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "def with_psum(x):\n"
    "    y = x * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return jax.lax.psum(y, 'i') + y\n"
    "mesh = jax.make_mesh((8,), ('i',))\n"
    "sharded = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P('i')))\n"
    "f = jax.jit(jax.shard_map(with_psum, mesh=mesh, in_specs=P('i'), out_specs=P('i')))",
    "print('shard result', float(f(sharded).sum()))",
]


def test_the_device_selector_keeps_its_keys(lab_page: LabPage, tmp_path):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "keys.ipynb", SHARD_CELLS))
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    widget = page.locator(".jaxdbg-debugger[data-status='waiting']")
    widget.wait_for(timeout=90_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.jaxdbg-dbg-device-select option').length === 8",
        timeout=30_000,
    )
    cells_before = page.locator(".jp-Cell").count()
    select = widget.locator(".jaxdbg-dbg-device-select")
    select.focus()
    for key in ("a", "b", "ArrowDown"):
        select.press(key)
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-details')"
        "?.textContent.includes('i=1')",
        timeout=30_000,
    )
    assert page.locator(".jp-Cell").count() == cells_before  # no cell inserted by a or b
    lab_page.screenshot("life-device-selector-keys")
    widget.locator(".jaxdbg-dbg-button[data-command='c']").click()
    lab_page.wait_for_output("shard result")
    assert lab_page.console_errors == []


def test_a_restart_during_a_breakpoint_turns_the_debugger_off(lab_page: LabPage, tmp_path):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "restart.ipynb", SHARD_CELLS))
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.locator(".jaxdbg-debugger[data-status='waiting']").wait_for(timeout=90_000)
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()"
    )
    gone = page.locator(".jaxdbg-debugger[data-status='kernel-gone']")
    gone.wait_for(timeout=60_000)
    assert "kernel gone" in gone.locator(".jaxdbg-dbg-details").inner_text()
    buttons = gone.locator(".jaxdbg-dbg-button")
    assert buttons.count() >= 3
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    gone.focus()
    page.keyboard.press("c")  # the one-key Continue does nothing now, and throws nothing
    lab_page.wait_kernel_idle()
    lab_page.screenshot("life-restart-during-a-breakpoint")
    assert not [e for e in lab_page.console_errors if "Cannot send" in e]
    assert lab_page.console_errors == []

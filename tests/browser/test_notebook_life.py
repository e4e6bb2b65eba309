"""The notebook's life in JupyterLab and Notebook 7: saved diagrams, pictures, NaN reports and
print logs draw again after a kernel restart and a page reload (asking the kernel only while it
runs), and a shard session's device selector keeps its keys."""

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


LINKED_CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp, numpy as np\n"
    "import jaxdbg_widgets as jdw\n"
    "a = np.arange(1000 * 1000, dtype=np.float32).reshape(1000, 1000) / 7",
    "jdw.show({'a': a})",
    "jdw.find_nonfinite(jnp.log, jnp.array([-1.0, 2.0]))",
    "%jaxdbg log",
    "jax.jit(lambda v: jdw.print('printed after the log: {v}', v=v))(jnp.arange(3.0))",
]
PICTURE = ".jdw-standalone-live .jdw-pic-frame"
REPORT_BUTTON = ".jdw-standalone-live .jdw-nan-debug"
LOG_TEXT = ".jdw-standalone-live .jaxdbg-printlog-table tbody .jaxdbg-printlog-col-text"


def _hover_tip(page) -> str:
    """Hover the picture's middle and wait for the tooltip's settled text."""
    box = page.locator(PICTURE).first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    page.wait_for_function(
        "() => { const t = document.querySelector('.jdw-pic-tip');"
        " return t && !t.hidden && !t.textContent.endsWith('…'); }",
        timeout=30_000,
    )
    return page.locator(".jdw-pic-tip").first.inner_text()


def test_pictures_a_report_and_the_log_last_and_ask_the_kernel_while_it_runs(
    lab_page: LabPage, tmp_path
):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "linked.ipynb", LINKED_CELLS))
    lab_page.run_all_cells()
    page.locator(".jdw-standalone-live[data-linked='true'] .jdw-pic-frame").wait_for(timeout=60_000)
    assert " = " in _hover_tip(page)  # the exact value, from the kernel
    button = page.locator(REPORT_BUTTON)
    assert button.is_enabled()
    page.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].some(t => t.textContent.includes("
        "'printed after the log'))",
        arg=LOG_TEXT,
        timeout=30_000,
    )
    lab_page.screenshot("life-linked-live")
    _save(page)
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()"
    )
    lab_page.wait_kernel_idle()
    page.reload()
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    page.locator(PICTURE).first.wait_for(timeout=60_000)
    assert page.get_by_text("Error displaying widget").count() == 0
    assert page.get_by_text("model not found").count() == 0
    assert page.locator(".jdw-standalone-live[data-linked='true']").count() == 0
    assert "kept only while the kernel that drew it runs" in _hover_tip(page)
    button = page.locator(REPORT_BUTTON)
    assert button.is_disabled() and "kernel" in button.get_attribute("title")
    texts = page.locator(LOG_TEXT).all_inner_texts()
    assert any("printed after the log" in t for t in texts), texts
    page.locator(".jdw-standalone-live .jaxdbg-printlog-filter").fill("after the log")
    page.wait_for_function(
        "sel => document.querySelectorAll(sel).length === 1", arg=LOG_TEXT, timeout=10_000
    )
    lab_page.screenshot("life-linked-after-restart-and-reload")
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

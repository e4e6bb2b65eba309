"""The debugger widget in JupyterLab + Chromium: click a frame, evaluate, continue, escaping."""

import pytest

from tests.fixtures.lab import write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

XSS = "<img src=x onerror=alert(1)>"

CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "def inner(x):\n"
    f"    label = {XSS!r}\n"
    "    y = jnp.sin(x) * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return y + 1\n"
    "def outer(x):\n"
    "    z = x * 3\n"
    "    return inner(z).sum()\n"
    "def per_device(block):\n"
    "    jax.debug.breakpoint()\n"
    "    return block * 2\n"
    "mesh = jax.make_mesh((8,), ('i',))\n"
    "sharded = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P('i')))",
    "print('main result', float(jax.jit(outer)(jnp.arange(4.0))))",
    "f = jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=P('i'), out_specs=P('i')))\n"
    "print('worker result', float(f(sharded).sum()))",
]


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(tmp_path / "debugger_browser.ipynb", CELLS)


def _waiting_widget(page):
    widget = page.locator(".jaxdbg-debugger[data-status='waiting']")
    widget.wait_for(timeout=90_000)
    return widget


def test_click_a_frame_evaluate_and_continue_with_escaping(lab_page, notebook):
    dialogs = []
    page = lab_page.page
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    lab_page.open_notebook(notebook)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

    widget = _waiting_widget(page)
    assert widget.locator(".jaxdbg-dbg-location").inner_text().startswith("inner (In[")
    assert "main thread" in widget.locator(".jaxdbg-dbg-details").inner_text()
    assert (
        widget.locator(".jaxdbg-dbg-line.jaxdbg-current")
        .inner_text()
        .strip()
        .endswith("jax.debug.breakpoint()")
    )
    locals_text = widget.locator(".jaxdbg-dbg-locals").inner_text()
    assert XSS in locals_text
    assert "float32[4]" in locals_text
    lab_page.screenshot("debugger-at-breakpoint")

    widget.locator(".jaxdbg-dbg-frame").nth(1).click()
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-location')"
        "?.textContent.startsWith('outer')",
        timeout=30_000,
    )
    assert "z" in widget.locator(".jaxdbg-dbg-locals").inner_text()

    widget.locator(".jaxdbg-dbg-frame").nth(0).click()
    expression = widget.locator(".jaxdbg-dbg-expression")
    expression.fill("label")
    expression.press("Enter")
    page.wait_for_function(
        "xss => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent.includes(xss))",
        arg=XSS,
        timeout=30_000,
    )
    expression.fill("y.shape")
    expression.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent === '(4,)')",
        timeout=30_000,
    )
    expression.press("ArrowUp")
    assert expression.input_value() == "p y.shape"
    assert widget.locator("img").count() == 0
    assert page.locator(".jp-OutputArea-output img[src='x']").count() == 0
    lab_page.screenshot("debugger-evaluated")

    widget.locator(".jaxdbg-dbg-button", has_text="Continue").first.click()
    lab_page.wait_for_output("main result")
    frozen = page.locator(".jaxdbg-static").first
    frozen.wait_for(timeout=30_000)
    assert "p label" in frozen.inner_text() and "continued" in frozen.inner_text()
    assert XSS in frozen.inner_text()

    worker = _waiting_widget(page)
    assert "thread " in worker.locator(".jaxdbg-dbg-details").inner_text()
    worker.locator(".jaxdbg-dbg-button", has_text="Continue all").click()
    lab_page.wait_for_output("worker result 240.0")
    lab_page.screenshot("debugger-continued")
    assert page.locator(".jaxdbg-debugger[data-status='waiting']").count() == 0
    assert dialogs == []
    assert lab_page.console_errors == []


def test_internal_frames_toggle_and_keyboard_continue_in_dark_theme(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme',"
        " { theme: 'JupyterLab Dark' })"
    )
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    widget = _waiting_widget(page)
    user_frames = widget.locator(".jaxdbg-dbg-frame").count()
    widget.locator(".jaxdbg-dbg-internal input").check()
    page.wait_for_function(
        "n => document.querySelectorAll('.jaxdbg-debugger .jaxdbg-dbg-frame').length > n",
        arg=user_frames,
        timeout=30_000,
    )
    assert widget.locator(".jaxdbg-dbg-frame.jaxdbg-internal").count() > 0
    lab_page.screenshot("debugger-dark-internal-frames")
    widget.focus()
    page.keyboard.press("c")
    lab_page.wait_for_output("main result")
    page.locator(".jaxdbg-static").first.wait_for(timeout=30_000)
    worker = _waiting_widget(page)
    worker.locator(".jaxdbg-dbg-button", has_text="Continue all").click()
    lab_page.wait_for_output("worker result 240.0")
    assert lab_page.console_errors == []

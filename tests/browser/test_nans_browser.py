"""find_nonfinite's report in JupyterLab and Notebook 7 + Chromium: the origin's line is marked,
"Debug at this line" opens the debugger there with the equation's values as locals, `p` answers
while the kernel is idle, and the report fits a dark 900 px window. Screenshots go to
test-artifacts/."""

import pytest

from tests.fixtures.lab import write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "import jaxdbg_widgets as jdw\n"
    "def body(carry, x):\n"
    "    y = jnp.log(carry - x)\n"
    "    return carry, y\n"
    "program = jax.jit(lambda xs: jax.lax.scan(body, 3.0, xs)[1])",
    "jdw.find_nonfinite(program, jnp.arange(6.0))",
]
REPORT = ".jp-OutputArea-output .jdw-nan-report"


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(tmp_path / "nans_browser.ipynb", CELLS)


def test_the_origin_is_marked_and_its_debugger_answers_p(lab_page, notebook):
    page = lab_page.page
    page.set_viewport_size({"width": 900, "height": 1000})
    lab_page.open_notebook(notebook)
    lab_page.change_theme("JupyterLab Dark")
    lab_page.run_all_cells()
    report = page.locator(REPORT)
    report.locator(".jdw-nan-head").wait_for(timeout=60_000)
    text = report.inner_text()
    assert "scan iteration 3" in text and "first NaN" in text
    marked = report.locator(".jdw-nan-mark").first
    assert "y = jnp.log(carry - x)" in marked.inner_text()
    assert report.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "fits 900 px"
    lab_page.screenshot("nans-report-dark-900px")

    page.locator(".jdw-nan-debug").first.click()
    debugger = page.locator(".jdw-nan-debugger .jaxdbg-debugger")
    debugger.wait_for(timeout=30_000)
    assert "inspecting, not stopped" in debugger.locator(".jaxdbg-dbg-details").inner_text()
    assert "in0" in debugger.locator(".jaxdbg-dbg-locals").inner_text()
    expression = debugger.locator(".jaxdbg-dbg-expression")
    expression.fill("out0")
    expression.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jdw-nan-debugger .jaxdbg-dbg-output')]"
        ".some(o => o.textContent.includes('-inf'))",
        timeout=30_000,
    )
    lab_page.wait_kernel_idle()
    lab_page.screenshot("nans-debugger-at-origin")
    assert lab_page.console_errors == []


NANS_ON = [
    "%load_ext jaxdbg\n"
    "%jaxdbg nans on\n"
    "import jax, jax.numpy as jnp\n"
    "def body(carry, x):\n"
    "    y = jnp.log(carry - x)\n"
    "    return carry, y\n"
    "step = jax.jit(lambda xs: jax.lax.scan(body, 3.0, xs)[1] * 2.0)",
    "step(jnp.arange(6.0))",
]
WAITING = ".jaxdbg-debugger[data-status='waiting']"


def test_nans_on_stops_at_the_origin_and_continue_raises_there(lab_page, tmp_path):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "nans_on.ipynb", NANS_ON))
    lab_page.change_theme("JupyterLab Dark")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    debugger = page.locator(WAITING)
    debugger.wait_for(timeout=90_000)
    assert debugger.locator(".jaxdbg-dbg-location").inner_text().startswith("body")
    current = debugger.locator(".jaxdbg-dbg-source .jaxdbg-current")
    assert "y = jnp.log(carry - x)" in current.inner_text()
    assert {"in0", "out0"} <= set(debugger.locator(".jaxdbg-dbg-locals").inner_text().split())
    expression = debugger.locator(".jaxdbg-dbg-expression")
    expression.fill("in0")
    expression.press("Enter")
    page.wait_for_function(
        f'() => [...document.querySelectorAll("{WAITING} .jaxdbg-dbg-output")]'
        ".some(o => o.textContent.includes('array(0.'))",
        timeout=30_000,
    )
    page.set_viewport_size({"width": 900, "height": 1000})
    lab_page.screenshot("nans-on-debugger-at-origin-dark-900px")

    debugger.locator(".jaxdbg-dbg-button[data-command='c']").click()
    lab_page.wait_for_output("FloatingPointError")
    lab_page.wait_kernel_idle()
    errors = page.locator(".jp-OutputArea-output", has_text="FloatingPointError")
    assert "(forward; scan iteration 3)" in errors.last.inner_text()
    assert page.locator(WAITING).count() == 0
    lab_page.screenshot("nans-on-after-continue")
    assert lab_page.console_errors == []

"""A page reloaded, or a second tab opened, while a breakpoint waits gets the debugger back."""

import re
import time

import pytest

from tests.fixtures.lab import LabPage, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

WAITING = ".jaxdbg-debugger[data-status='waiting']"
CONTINUE = ".jaxdbg-dbg-button[data-command='c']"
CELL_OUTPUT = ".jaxdbg-debugger .jaxdbg-dbg-cell-output"
RESULT = "'the cell returned'"
CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp, ipywidgets\n"
    "def inner(x):\n"
    "    y = jnp.sin(x) * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return y + 1",
    "display(ipywidgets.IntSlider(value=7, description='kept'))\n"
    "print('main result', float(jax.jit(inner)(jnp.arange(4.0)).sum()))\n"
    "'the cell ' + 'returned'",
    "print('next cell ran')",
]


@pytest.fixture
def notebook(request, tmp_path):
    """A notebook of its own per test, so no test meets another's kernel session."""
    name = re.sub(r"\W", "_", request.node.name)
    return write_notebook(tmp_path / f"{name}.ipynb", CELLS)


def _stop_at_the_breakpoint_and_save(lab_page: LabPage) -> None:
    """Run the first two cells, wait for the debugger, and save so a new page shows it."""
    page = lab_page.page
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget;"
        " nb.content.activeCellIndex = 2;"
        " window.jupyterapp.commands.execute('notebook:run-all-above'); }"
    )
    page.locator(WAITING).wait_for(timeout=90_000)
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.model?.dirty === false",
        timeout=30_000,
    )


def _seconds_until_usable(page) -> float:
    """Seconds from the notebook showing to the debugger widget back and enabled."""
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    shown = time.monotonic()
    page.locator(f"{WAITING} {CONTINUE}:enabled").wait_for(timeout=30_000)
    return time.monotonic() - shown


def _restored_widgets_are_whole(page) -> None:
    assert page.get_by_text("Error displaying widget").count() == 0
    assert page.locator(".widget-slider .widget-label", has_text="kept").count() == 1
    assert page.locator(WAITING).locator(".jaxdbg-dbg-location").inner_text().startswith("inner")


def _outputs_showing(page, text: str) -> int:
    """How many cell outputs (not sources) show ``text``."""
    return page.evaluate(
        "text => [...document.querySelectorAll('.jp-OutputArea-output')]"
        ".filter(o => o.textContent.includes(text)).length",
        text,
    )


def _wait_for_the_cells_result(page) -> str:
    """The ended debugger's copy of its cell's later output, once it holds the result."""
    page.wait_for_function(
        "([selector, result]) => [...document.querySelectorAll(selector)]"
        ".some(o => !o.hidden && o.textContent.includes(result))",
        arg=[CELL_OUTPUT, RESULT],
        timeout=30_000,
    )
    return page.locator(CELL_OUTPUT).inner_text()


def _prompt(page, cell: int) -> str:
    return page.locator(".jp-Cell").nth(cell).locator(".jp-InputPrompt").inner_text().strip()


def test_reload_brings_the_debugger_back_and_continue_ends_the_cell(lab_page, notebook):
    page = lab_page.page
    page.on("dialog", lambda dialog: dialog.accept())
    lab_page.open_notebook(notebook)
    _stop_at_the_breakpoint_and_save(lab_page)

    page.reload()
    seconds = _seconds_until_usable(page)
    print(f"debugger usable {seconds:.2f} s after the reloaded notebook showed")
    _restored_widgets_are_whole(page)
    lab_page.screenshot("debugger-after-reload")

    page.locator(f"{WAITING} {CONTINUE}").click()
    page.wait_for_function('() => !document.querySelector("' + WAITING + '")', timeout=30_000)
    shown = _wait_for_the_cells_result(page)
    print(f"the reloaded tab shows after Continue: {shown!r}")
    assert shown.startswith("cell output after continue:")
    assert re.search(r"main result 7\.78\d+\s+Out\[\d+\]:\s*'the cell returned'$", shown)
    assert page.locator(".jaxdbg-debugger[data-status='continue']").count() == 1
    assert _outputs_showing(page, "main result") == 1, "the cell's output shows once"
    count = re.search(r"Out\[(\d+)\]", shown).group(1)
    page.wait_for_function(
        "([n, text]) => document.querySelectorAll('.jp-Cell')[n]"
        "?.querySelector('.jp-InputPrompt')?.textContent.trim() === text",
        arg=[1, f"[{count}]:"],
        timeout=10_000,
    )

    page.set_viewport_size({"width": 900, "height": 1000})
    lab_page.change_theme("JupyterLab Dark")
    page.locator(CELL_OUTPUT).scroll_into_view_if_needed()
    lab_page.screenshot("debugger-reload-cell-output-dark")

    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.model?.dirty === false",
        timeout=30_000,
    )
    page.reload()
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    assert _wait_for_the_cells_result(page) == shown, "reloaded again, the copy is still there"
    assert _prompt(page, 1) == f"[{count}]:", "the saved notebook kept the cell's count"

    page.locator(".jp-Cell .jp-InputArea-editor").nth(2).click()
    page.keyboard.press("Shift+Enter")
    lab_page.wait_for_output("next cell ran")
    assert lab_page.console_errors == []


def test_a_second_tab_gets_the_debugger_and_its_continue_reaches_the_first(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    _stop_at_the_breakpoint_and_save(lab_page)

    second = LabPage(page=page.context.new_page(), server=lab_page.server, frontend="notebook7")
    second.page.on("console", lambda msg: msg.type == "error" and second.record_error(msg.text))
    second.page.goto(f"{lab_page.server.url}notebooks/{notebook.name}")
    seconds = _seconds_until_usable(second.page)
    print(f"debugger usable {seconds:.2f} s after the second tab's notebook showed")
    _restored_widgets_are_whole(second.page)
    second.screenshot("debugger-second-tab")

    second.page.locator(f"{WAITING} {CONTINUE}").click()
    lab_page.wait_for_output("main result")
    assert page.locator(WAITING).count() == 0
    assert "main result" in _wait_for_the_cells_result(second.page)
    lab_page.wait_for_output(RESULT)
    assert _outputs_showing(page, "main result") == 1, "the first tab shows it once, itself"
    assert page.locator(CELL_OUTPUT).count() == 0
    assert lab_page.console_errors == []
    assert second.console_errors == []

"""While a breakpoint blocks a cell the kernel reads busy; a page reloaded meanwhile shows it waits."""

import re
import time

import pytest

from tests.fixtures.lab import LabPage, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

WAITING = ".jaxdbg-debugger[data-status='waiting']"
CONTINUE = ".jaxdbg-dbg-button[data-command='c']"
NOTICE = ".jaxdbg-waiting-notice"
STEADY_SECONDS = 2.0
CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "def inner(x):\n"
    "    y = jnp.sin(x) * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return y + 1",
    "print('main result', float(jax.jit(inner)(jnp.arange(4.0)).sum()))",
    "print('next cell ran')",
]
STATUS = (
    "() => { const s = window.jupyterapp.shell.currentWidget?.sessionContext;"
    " return [s?.session?.kernel?.status ?? null, s?.kernelDisplayStatus ?? null]; }"
)


@pytest.fixture
def notebook(request, tmp_path):
    """A notebook of its own per test, so no test meets another's kernel session."""
    name = re.sub(r"\W", "_", request.node.name)
    return write_notebook(tmp_path / f"{name}.ipynb", CELLS)


def _stop_at_the_breakpoint(lab_page: LabPage) -> None:
    lab_page.page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget;"
        " nb.content.activeCellIndex = 2;"
        " window.jupyterapp.commands.execute('notebook:run-all-above'); }"
    )
    lab_page.page.locator(WAITING).wait_for(timeout=90_000)


def _wait_status(page, state: str, timeout: float = 30_000) -> None:
    page.wait_for_function(f"() => ({STATUS})().every(s => s === {state!r})", timeout=timeout)


def _reads_busy_steadily(page) -> None:
    """The kernel and what the toolbar and status bar show say busy, and keep saying it."""
    _wait_status(page, "busy")
    deadline = time.monotonic() + STEADY_SECONDS
    while time.monotonic() < deadline:
        assert page.evaluate(STATUS) == ["busy", "busy"]
        page.wait_for_timeout(100)


def _run_command(scope, line: str, output: str) -> None:
    """Type a jdb command into the debugger in ``scope`` and wait for its answer."""
    box = scope.locator(f"{WAITING} .jaxdbg-dbg-command-line")
    box.fill(line)
    box.press("Enter")
    scope.locator(f"{WAITING} .jaxdbg-dbg-transcript", has_text=output).wait_for(timeout=30_000)


def test_kernel_reads_busy_while_the_breakpoint_waits_and_idle_after_continue(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    _stop_at_the_breakpoint(lab_page)
    _reads_busy_steadily(page)
    _run_command(page, "p y.shape", "(4,)")
    _reads_busy_steadily(page)
    assert page.locator(NOTICE).count() == 0, "a debugger drawn in its cell needs no notice"
    lab_page.screenshot("busy-status-at-breakpoint")

    page.locator(f"{WAITING} {CONTINUE}").click()
    lab_page.wait_for_output("main result")
    _wait_status(page, "idle")
    assert lab_page.console_errors == []


def test_a_page_reloaded_unsaved_shows_the_waiting_breakpoint_and_reads_busy(lab_page, notebook):
    page = lab_page.page
    page.on("dialog", lambda dialog: dialog.accept())
    lab_page.open_notebook(notebook)
    _stop_at_the_breakpoint(lab_page)

    page.reload()
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    notice = page.locator(NOTICE)
    notice.wait_for(timeout=30_000)
    title = notice.locator(".jaxdbg-waiting-notice-title")
    assert re.fullmatch(
        r"A breakpoint is waiting in cell In\[\d+\], at inner \(In\[\d+\]:5\)", title.inner_text()
    )
    assert page.locator(f".jp-OutputArea {WAITING}").count() == 0, "no output draws it here"
    _reads_busy_steadily(page)
    _run_command(notice, "p y.shape", "(4,)")
    _reads_busy_steadily(page)
    lab_page.screenshot("busy-status-reload-notice")

    notice.locator(f"{WAITING} {CONTINUE}").click()
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-waiting-notice-title')"
        "?.textContent.endsWith('ended: continued')",
        timeout=30_000,
    )
    _wait_status(page, "idle")
    notice.locator(".jaxdbg-waiting-notice-close").click()
    assert page.locator(NOTICE).count() == 0
    page.locator(".jp-Cell .jp-InputArea-editor").nth(2).click()
    page.keyboard.press("Shift+Enter")
    lab_page.wait_for_output("next cell ran")
    assert lab_page.console_errors == []

"""The quickstart notebook in JupyterLab + Chromium: every cell runs, no JavaScript error."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"


def test_quickstart_runs_clean_in_jupyterlab(lab_page):
    lab_page.open_notebook(NOTEBOOK)
    lab_page.run_all_cells()
    page = lab_page.page
    outputs = page.locator(".jp-OutputArea-output")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-OutputArea-output')]"
        ".some(o => o.textContent.includes('jaxdbg') && o.textContent.includes('loaded'))"
    )
    text = "\n".join(outputs.all_inner_texts())
    assert "widget transport" in text and "subshell" in text
    assert "Traceback" not in text
    page.locator("h2", has_text="See how an array is sharded").evaluate(
        "h => h.scrollIntoView({block: 'start'})"
    )
    lab_page.screenshot("quickstart")
    assert lab_page.console_errors == []

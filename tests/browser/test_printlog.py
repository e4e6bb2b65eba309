"""The print log table in JupyterLab + Chromium: live rows, the status line and the filter box."""

import pytest

from tests.fixtures.lab import write_notebook

pytestmark = pytest.mark.browser

CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "@jax.jit\n"
    "def count(n):\n"
    "    def body(i, total):\n"
    "        jax.debug.print('step {i}', i=i)\n"
    "        return total + i\n"
    "    return jax.lax.fori_loop(0, n, body, 0)",
    "%jaxdbg log",
    "_ = count(3000).block_until_ready()",
]


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(tmp_path / "printlog_browser.ipynb", CELLS)


def _visible_texts(page):
    return page.locator(".jaxdbg-printlog-table tbody .jaxdbg-printlog-col-text").all_inner_texts()


def test_the_table_fills_live_and_the_filter_box_narrows_it(lab_page, notebook):
    lab_page.open_notebook(notebook)
    lab_page.run_all_cells()
    page = lab_page.page
    status = page.locator(".jaxdbg-printlog-status")
    status.wait_for(timeout=60_000)
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-printlog-status')?.textContent"
        ".includes('3,000 printed')",
        timeout=60_000,
    )
    assert status.inner_text() == "newest 200 of 3,000 matching · 3,000 printed"
    texts = _visible_texts(page)
    assert len(texts) == 200
    assert texts[-1] == "step 2999"
    headings = page.locator(".jaxdbg-printlog-table th").all_inner_texts()
    assert headings == ["#", "cell", "time", "call site", "text", "values"]

    page.locator(".jaxdbg-printlog-filter").fill("step 123")
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-printlog-status').textContent"
        ".startsWith('11 matching')",
        timeout=30_000,
    )
    texts = _visible_texts(page)
    assert texts[0] == "step 123" and len(texts) == 11
    assert all(text.startswith("step 123") for text in texts)
    lab_page.screenshot("printlog")
    assert lab_page.console_errors == []

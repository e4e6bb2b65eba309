"""A console error Notebook 7 logs by itself: it comes without jaxdbg, so the fixture sets it
apart (see ``UPSTREAM_ERRORS`` in tests/fixtures/lab.py) and every other error still fails."""

import pytest

from tests.fixtures.lab import UPSTREAM_ERRORS, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("notebook7")]


def test_the_known_error_comes_from_notebook_7_without_jaxdbg(lab_page, tmp_path):
    lab_page.open_notebook(write_notebook(tmp_path / "bare.ipynb", ["1 + 1"]))
    lab_page.run_all_cells()
    lab_page.page.wait_for_timeout(1000)
    assert lab_page.console_errors == []
    assert set(lab_page.upstream_errors) <= set(UPSTREAM_ERRORS["notebook7"])
    assert "Cannot read properties of undefined (reading 'schema')" in lab_page.upstream_errors

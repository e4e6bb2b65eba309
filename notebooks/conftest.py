"""nbval marks every cell after one that timed out as expected to fail, so a notebook that hangs
would pass; here those cells fail, saying which notebook timed out."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator:
    outcome = yield
    report = outcome.get_result()
    reason = getattr(report, "wasxfail", "")
    if "timed out" in reason:
        del report.wasxfail
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: not run as it should be: {reason}"

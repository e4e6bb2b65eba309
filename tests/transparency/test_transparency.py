"""Loading the extension changes nothing a program prints, returns or raises.

Every program in ``programs.py`` runs in two fresh interpreters, one with plain JAX and one
with ``%load_ext jaxdbg`` loaded, and the two records must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.transparency.programs import PROGRAMS, UNORDERED

ROOT = Path(__file__).resolve().parents[2]


def _run(mode: str, out: Path) -> dict:
    subprocess.run(
        [sys.executable, "-m", "tests.transparency.run_programs", mode, str(out)],
        cwd=ROOT,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        check=True,
        capture_output=True,
        timeout=300,
    )
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("transparency")
    return _run("plain", folder / "plain.json"), _run("extension", folder / "extension.json")


def _comparable(name: str, record: dict) -> dict:
    if name in UNORDERED:
        return {**record, "stdout": sorted(record["stdout"].splitlines())}
    return record


def test_the_extension_run_goes_through_jaxdbg_widgets(records):
    plain, extension = (record["used"] for record in records)
    assert set(plain.values()) == {"jax._src.debugging"}
    assert extension == {
        "print": "jaxdbg_widgets.core.printing",
        "callback": "jaxdbg_widgets.core.callbacks",
    }


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_extension_changes_nothing(records, name):
    plain, extension = (record["programs"] for record in records)
    assert plain[name]["stdout"] or "error" in plain[name], "the program shows nothing to compare"
    assert _comparable(name, extension[name]) == _comparable(name, plain[name])

"""Every dependency has a floor and no cap, so installing us never moves what a user pinned."""

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
EXACT_PINS = {("dev", "ruff")}
"""The formatter is pinned exactly, so that ``make lint`` formats alike on every machine."""


def _requirements() -> list[tuple[str, Requirement]]:
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    groups = {"build-system": data["build-system"]["requires"]}
    groups["dependencies"] = data["project"]["dependencies"]
    groups.update(data["project"]["optional-dependencies"])
    return [(group, Requirement(text)) for group, texts in groups.items() for text in texts]


def _not_a_floor(group: str, requirement: Requirement) -> bool:
    """Whether the requirement asks for anything but one ``>=`` (or its declared exact pin)."""
    operators = sorted(spec.operator for spec in requirement.specifier)
    return operators != (["=="] if (group, requirement.name) in EXACT_PINS else [">="])


def test_every_dependency_has_a_floor_and_no_cap():
    wrong = [f"{group}: {req}" for group, req in _requirements() if _not_a_floor(group, req)]
    assert wrong == []


def test_a_cap_a_missing_floor_and_an_undeclared_pin_are_each_caught():
    assert _not_a_floor("test", Requirement("jupyterlab>=4.2,<4.7"))
    assert _not_a_floor("test", Requirement("jupyterlab"))
    assert _not_a_floor("test", Requirement("ruff==0.17.6"))
    assert not _not_a_floor("dev", Requirement("ruff==0.17.6"))

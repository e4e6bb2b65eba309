"""The public surface is documented and stays importable from the top-level package."""

from pathlib import Path

import jaxdbg_widgets

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_every_public_name_is_in_the_api_reference():
    text = API_DOC.read_text(encoding="utf-8")
    missing = [name for name in jaxdbg_widgets.__all__ if f"`{name}" not in text]
    assert missing == []


def test_every_public_name_resolves():
    for name in jaxdbg_widgets.__all__:
        assert getattr(jaxdbg_widgets, name) is not None

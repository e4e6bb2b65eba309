"""Where the JavaScript and CSS front end lives: inside the wheel, or ``js/`` in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_WHEEL_STATIC = _PACKAGE_DIR / "static"
_CHECKOUT_JS = _PACKAGE_DIR.parent / "js"


def static_dir() -> Path:
    """The folder holding the ES modules and CSS (``js/`` for an editable install)."""
    return _WHEEL_STATIC if _WHEEL_STATIC.is_dir() else _CHECKOUT_JS


def asset(name: str) -> Path:
    """Path of one front-end file, e.g. ``asset("sharding.js")``; raises if it is missing."""
    path = static_dir() / name
    if not path.is_file():
        raise FileNotFoundError(
            f"jaxdbg_widgets front-end file {name!r} not found in {static_dir()}"
        )
    return path

"""Where the JavaScript and CSS front end lives: inside the wheel, or ``js/`` in a checkout."""

from __future__ import annotations

import base64
import re
from functools import cache
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


def stylesheet(*names: str) -> str:
    """The CSS files ``names``, in order, as one stylesheet (a widget's ``_css``)."""
    return "".join(asset(name).read_text(encoding="utf-8") for name in names)


_LOCAL_IMPORT = re.compile(r"""from\s+["']\./([\w.-]+\.js)["']""")


@cache
def inlined_module(name: str) -> str:
    """The source of ``name`` with its ``./x.js`` imports (recursively) turned into data URLs.

    anywidget loads ``_esm`` from text, where relative imports cannot resolve; inlining keeps
    the pure helpers separate files (tested with ``node --test``) without a bundler.
    """
    source = asset(name).read_text(encoding="utf-8")

    def to_data_url(match: re.Match[str]) -> str:
        encoded = base64.b64encode(inlined_module(match.group(1)).encode("utf-8")).decode("ascii")
        return f'from "data:text/javascript;base64,{encoded}"'

    return _LOCAL_IMPORT.sub(to_data_url, source)

"""The widget's ES module as one string: local ``./x.js`` imports become ``data:`` URLs.

anywidget loads ``_esm`` from text, where relative imports cannot resolve; inlining the pure
helper modules as data URLs keeps them separate files (tested with ``node --test``) without a
bundler.
"""

from __future__ import annotations

import base64
import re
from functools import cache

from jaxdbg_widgets._assets import asset

_LOCAL_IMPORT = re.compile(r"""from\s+["']\./([\w.-]+\.js)["']""")


@cache
def inlined_module(name: str) -> str:
    """The source of ``js/<name>`` with its local imports (recursively) turned into data URLs."""
    source = asset(name).read_text(encoding="utf-8")

    def to_data_url(match: re.Match[str]) -> str:
        encoded = base64.b64encode(inlined_module(match.group(1)).encode("utf-8")).decode("ascii")
        return f'from "data:text/javascript;base64,{encoded}"'

    return _LOCAL_IMPORT.sub(to_data_url, source)

"""Join a widget's ES module with the helper modules it imports, for anywidget's ``_esm``.

anywidget loads ``_esm`` from a string, where ``import ... from "./helper.js"`` cannot resolve.
Helpers stay separate files (so ``node --test`` can test them) and are put in front here.
"""

from __future__ import annotations

import re

from jaxdbg_widgets._assets import asset

_RELATIVE_IMPORT = re.compile(r'^import\s*\{[^}]*\}\s*from\s*"\./([\w.-]+)";[ \t]*\n?', re.M)


def joined_module(main: str) -> str:
    """The source of ``main`` with every ``./`` module it imports inlined before it."""
    source = asset(main).read_text(encoding="utf-8")
    helpers = _RELATIVE_IMPORT.findall(source)
    body = _RELATIVE_IMPORT.sub("", source)
    parts = [_helper_source(name) for name in dict.fromkeys(helpers)]
    return "\n".join([*parts, body])


def _helper_source(name: str) -> str:
    source = asset(name).read_text(encoding="utf-8")
    if _RELATIVE_IMPORT.search(source) or re.search(r"^export default", source, re.M):
        raise ValueError(f"helper module {name!r} must be self-contained with named exports only")
    return source

"""Python source as escaped HTML lines, coloured with pygments token classes (styled in debugger.css)."""

from __future__ import annotations

import html

from pygments import lex
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, Token

_LEXER = PythonLexer(stripnl=False, stripall=False, ensurenl=False)


def highlight_lines(lines: list[str]) -> list[str]:
    """One HTML string per source line; every character of the source is escaped."""
    rendered: list[list[str]] = [[]]
    for token_type, text in lex("\n".join(lines), _LEXER):
        css = _css_class(token_type)
        for i, piece in enumerate(text.split("\n")):
            if i:
                rendered.append([])
            if piece:
                escaped = html.escape(piece, quote=True)
                rendered[-1].append(f'<span class="{css}">{escaped}</span>' if css else escaped)
    return ["".join(parts) for parts in rendered[: len(lines)]] + [""] * (
        len(lines) - len(rendered)
    )


def _css_class(token_type: object) -> str:
    while token_type not in STANDARD_TYPES and token_type is not Token:
        token_type = token_type.parent
    css = STANDARD_TYPES.get(token_type, "")
    return "" if css == "w" else css

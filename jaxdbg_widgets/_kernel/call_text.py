"""A call written as text, ``step(params, batch)``: its function and arguments, not called.

The magics that analyse a call without running it (``%jaxdbg comms``, ``%jaxdbg peak``) parse
it here and evaluate each part in the user's namespace; errors are one line under ``label``.
"""

from __future__ import annotations

import ast
from typing import Any

from jaxdbg_widgets.core.errors import one_line


def parse_call(
    expression: str, namespace: dict[str, Any], label: str
) -> tuple[Any, list[Any], dict[str, Any]]:
    """``(function, args, kwargs)`` of the call ``expression``; raises ValueError in one line."""
    text = expression.strip()
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise ValueError(f"{label}: {text!r} is not an expression: {err.msg}") from None
    call = tree.body
    if not isinstance(call, ast.Call):
        raise ValueError(f"{label}: {text!r} is not a call such as step(params, batch)")
    fun = _value(call.func, namespace, text, label)
    args: list[Any] = []
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            args.extend(_value(arg.value, namespace, text, label))
        else:
            args.append(_value(arg, namespace, text, label))
    kwargs: dict[str, Any] = {}
    for keyword in call.keywords:
        value = _value(keyword.value, namespace, text, label)
        if keyword.arg is None:
            kwargs.update(value)
        else:
            kwargs[keyword.arg] = value
    return fun, args, kwargs


def _value(node: ast.expr, namespace: dict[str, Any], text: str, label: str) -> Any:
    source = ast.unparse(node)
    try:
        return eval(compile(ast.Expression(node), f"<jaxdbg {label}>", "eval"), namespace)
    except Exception as err:
        raise ValueError(f"{label}: {source!r} in {text!r} failed: {one_line(err)}") from None

"""The compiled call an out-of-memory error came from, and its peak report.

The call is read off the user's failing line in the traceback: a call of a jitted function
(``jax.jit``, ``nnx.jit``, ``eqx.filter_jit``, ...) whose arguments are names, attributes,
subscripts or constants, so reading them runs none of the user's code. The function is then
compiled again for abstract versions of those arguments (:func:`.peak_api.peak_memory`):
nothing is allocated or run. A failure that surfaces away from its call (JAX dispatches
asynchronously, so a CPU program's allocation fails where its result is first waited on) has
no call on its line, and gets no report.
"""

from __future__ import annotations

import ast
import linecache
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import Any

from jaxdbg_widgets.core.callsite import is_internal_file
from jaxdbg_widgets.memory.peak_api import peak_memory
from jaxdbg_widgets.memory.peak_display import PeakMemory

_PLAIN = (ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.Tuple, ast.List, ast.Starred)


@dataclass(frozen=True)
class FailingCall:
    """A jitted call on the failing line: its text, the function and its argument values."""

    text: str
    function: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    def peak(self) -> PeakMemory:
        """The call's peak report, compiled for abstract arguments: nothing runs."""
        return peak_memory(self.function, *self.args, **self.kwargs)


def failing_call(tb: TracebackType | None) -> FailingCall | None:
    """The first jitted call with plain arguments on the innermost user line of ``tb``."""
    frame, lineno = _user_line(tb)
    if frame is None:
        return None
    source = linecache.getline(frame.f_code.co_filename, lineno).strip()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _plain_call(node):
            found = _read(node, frame)
            if found is not None and callable(getattr(found.function, "lower", None)):
                return found
    return None


def _user_line(tb: TracebackType | None) -> tuple[FrameType | None, int]:
    """The innermost frame of ``tb`` in the user's own code, and the line it was on."""
    frame, lineno = None, 0
    while tb is not None:
        if not is_internal_file(tb.tb_frame.f_code.co_filename):
            frame, lineno = tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next
    return frame, lineno


def _plain_call(node: ast.Call) -> bool:
    """Whether the callee and every argument only name values (no call, no operator)."""
    parts = [node.func, *node.args, *(k.value for k in node.keywords)]
    return all(
        isinstance(inner, (*_PLAIN, ast.Load, ast.expr_context, ast.keyword))
        for part in parts
        for inner in ast.walk(part)
    )


def _read(node: ast.Call, frame: FrameType) -> FailingCall | None:
    """The callee and argument values of ``node``, read in ``frame``; None if one fails."""
    if any(k.arg is None for k in node.keywords):
        return None  # **kwargs: leave it
    try:
        function = _value(node.func, frame)
        args: list[Any] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(_value(arg.value, frame))
            else:
                args.append(_value(arg, frame))
        kwargs = {k.arg: _value(k.value, frame) for k in node.keywords if k.arg}
    except Exception:
        return None
    return FailingCall(ast.unparse(node), function, tuple(args), kwargs)


def _value(node: ast.expr, frame: FrameType) -> Any:
    code = compile(ast.Expression(node), "<failing call>", "eval")
    return eval(code, frame.f_globals, frame.f_locals)

"""Show a debugger quit (or an interrupt at a breakpoint) in the cell as itself.

IPython calls a custom exception handler instead of showing the traceback, so the handler
shows it, through the kernel adapter (which knows how ipykernel publishes an error).

XLA reports any exception raised in a host callback as a ``JaxRuntimeError`` holding a
formatted traceback ("CpuCallback error ..."), and JAX logs that traceback too. With the
extension loaded the cell shows the original ``DebuggerQuit`` or ``KeyboardInterrupt`` in one
line instead, and the log record for it is dropped. A quit or an interrupt that ended a run on a
worker thread (:mod:`jaxdbg_widgets.debugger.serve.stops`) reaches the cell directly, also in
one line.

With JAX's NaN/Inf checks on, a ``FloatingPointError`` first opens the debugger post-mortem
on the user frames of its traceback, or at the origin its NaN search found under
``%jaxdbg nans on`` (:mod:`jaxdbg_widgets.debugger.serve.post_mortem`), then is shown in one
line. Where no one can answer a post-mortem, none opens and the error keeps JAX's own
traceback.

An out-of-memory error (``RESOURCE_EXHAUSTED``) keeps JAX's traceback exactly and is followed
by the live arrays, largest first, with the user's variables that hold them
(:mod:`jaxdbg_widgets.memory.oom`), and by the peak report of the jitted call on the failing
line, compiled again without running (:mod:`jaxdbg_widgets.memory.oom_call`).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets._kernel import error_line
from jaxdbg_widgets.core._jax_internals import callback_logger_names
from jaxdbg_widgets.core.errors import DebuggerQuit, one_line, original_exception
from jaxdbg_widgets.debugger.serve import backend, post_mortem, stops
from jaxdbg_widgets.memory import oom, oom_call

_QUIET = (DebuggerQuit, KeyboardInterrupt)
_CALLBACK_LOGGERS = callback_logger_names()


class _DropDebuggerExits(logging.Filter):
    """Drops "callback failed" records whose exception is a quit or an interrupt."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, _QUIET)


def _jax_runtime_error() -> type[BaseException]:
    from jax.errors import JaxRuntimeError

    return JaxRuntimeError


def _show_short(shell: Any, value: BaseException) -> list[str]:
    """Show ``value`` in the cell as one ``Type: message`` line."""
    return error_line.show_error_line(shell, value)


def _show_out_of_memory(shell: Any, tb: Any) -> None:
    """Display what was alive after an out-of-memory error and, when its line called a jitted
    function, that call's peak report; a failure here is one line."""
    from IPython.display import display

    try:
        display(oom.live_arrays(shell.user_ns))
    except Exception as err:
        print(f"jaxdbg_widgets: live arrays not shown: {one_line(err)}", file=sys.stderr)
    try:
        call = oom_call.failing_call(tb)
        if call is not None:
            print(f"the peak of {call.text}, compiled again without running:", flush=True)
            display(call.peak())
    except Exception as err:
        print(f"jaxdbg_widgets: peak report not shown: {one_line(err)}", file=sys.stderr)


def install(ip: Any) -> Callable[[], None]:
    """Register the cell handler and the log filter; the undo restores IPython's handlers."""
    previous_types, previous_handler = ip.custom_exceptions, ip.CustomTB
    runtime_error = _jax_runtime_error()

    def handler(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None):
        original = original_exception(value) if isinstance(value, runtime_error) else None
        if isinstance(original, _QUIET):
            return _show_short(shell, original)
        released = stops.take_shown(value)
        if released is not None:
            return _show_short(shell, released)
        if post_mortem.wants_post_mortem(value) and post_mortem.debug(
            value, tb, backend.debugger_backend
        ):
            return _show_short(shell, value)
        if previous_types and issubclass(etype, previous_types):
            return previous_handler(etype, value, tb, tb_offset=tb_offset)
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        if isinstance(value, runtime_error) and oom.is_out_of_memory(value):
            _show_out_of_memory(shell, tb)
        return None

    ip.set_custom_exc((*previous_types, runtime_error, FloatingPointError, *_QUIET), handler)
    log_filter = _DropDebuggerExits()
    for name in _CALLBACK_LOGGERS:
        logging.getLogger(name).addFilter(log_filter)

    def undo() -> None:
        ip.custom_exceptions, ip.CustomTB = previous_types, previous_handler
        for name in _CALLBACK_LOGGERS:
            logging.getLogger(name).removeFilter(log_filter)

    return undo

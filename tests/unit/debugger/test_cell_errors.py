"""The cell error handler shows a debugger quit as itself, and unloading restores IPython."""

from __future__ import annotations

import logging
import re

from jax.errors import JaxRuntimeError

from jaxdbg_widgets.core.errors import DebuggerQuit, remember
from jaxdbg_widgets.debugger.install import cell_errors


def _runtime_error_for(exc: BaseException) -> JaxRuntimeError:
    return JaxRuntimeError(
        "INTERNAL: CpuCallback error calling callback: Traceback (most recent call last):\n"
        f'  File "{remember(exc)}", line 1, in f\n{type(exc).__name__}: {exc}'
    )


def test_quit_is_shown_as_itself_and_undo_restores(shell):
    before = (shell.custom_exceptions, shell.CustomTB)
    undo = cell_errors.install(shell)
    assert JaxRuntimeError in shell.custom_exceptions
    quit_ = DebuggerQuit("quit at f (x.py:1)")
    error = _runtime_error_for(quit_)
    shell.CustomTB(type(error), error, None)
    etype, value, stb = shell.shown[-1]
    assert etype is DebuggerQuit and str(value) == str(quit_)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", "".join(stb))
    assert plain == "DebuggerQuit: quit at f (x.py:1)\n"
    undo()
    assert (shell.custom_exceptions, shell.CustomTB) == before


def test_other_runtime_errors_keep_their_traceback(shell, monkeypatch):
    calls = []
    monkeypatch.setattr(
        shell, "showtraceback", lambda exc_tuple, tb_offset=None: calls.append(exc_tuple)
    )
    undo = cell_errors.install(shell)
    error = JaxRuntimeError("INTERNAL: something else")
    shell.CustomTB(type(error), error, None)
    assert calls and calls[0][1] is error
    undo()


def test_log_records_of_quits_are_dropped_until_undo(shell):
    logger = logging.getLogger("jax._src.debugging")
    undo = cell_errors.install(shell)
    quit_record = logger.makeRecord(
        logger.name, logging.ERROR, "f", 1, "failed", (), (DebuggerQuit, DebuggerQuit(), None)
    )
    other_record = logger.makeRecord(
        logger.name, logging.ERROR, "f", 1, "failed", (), (ValueError, ValueError(), None)
    )
    assert not logger.filter(quit_record)
    assert logger.filter(other_record)
    undo()
    assert logger.filter(quit_record)

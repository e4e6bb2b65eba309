"""Run every transparency program once and write what each printed, returned and raised.

Usage: ``python -m tests.transparency.run_programs plain|extension OUT.json``. ``extension``
loads ``%load_ext jaxdbg`` into an IPython shell first and puts ``jaxdbg_widgets``' stand-in
for ``jax.debug.callback`` in place, as the oracle run of JAX's own tests does.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any

import jax
import numpy as np


def _load_extension() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from jaxdbg_widgets.core.callbacks import jax_debug_callback

    shell = InteractiveShell.instance()
    result = shell.run_cell("%load_ext jaxdbg", silent=True)
    if not result.success:
        raise SystemExit(f"loading the extension failed: {result.error_in_exec}")
    jax.debug.callback = jax_debug_callback


def _plain(value: Any) -> Any:
    """A JSON-able picture of a result: arrays as dtype, shape and values."""
    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        if jax.dtypes.issubdtype(value.dtype, jax.dtypes.extended):
            return {"dtype": str(value.dtype), "shape": list(value.shape)}
        array = np.asarray(value)
        return {"dtype": str(array.dtype), "shape": list(array.shape), "values": repr(array)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return repr(value)


def _error(error: BaseException) -> dict[str, str]:
    """The error's type and message; for a failed callback, only the message's last line
    (the rest is a stack whose internal frames differ by design)."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    message = lines[-1].strip() if "Traceback (most recent call last)" in str(error) else str(error)
    return {"type": type(error).__name__, "message": message}


def run_one(fn) -> dict[str, Any]:
    out = io.StringIO()
    record: dict[str, Any] = {}
    with contextlib.redirect_stdout(out):
        try:
            record["result"] = _plain(fn())
            jax.effects_barrier()
        except Exception as error:
            record["error"] = _error(error)
            with contextlib.suppress(Exception):
                jax.effects_barrier()
    record["stdout"] = out.getvalue()
    return record


def main(mode: str, path: str) -> None:
    if mode == "extension":
        _load_extension()
    elif mode != "plain":
        raise SystemExit(f"mode must be plain or extension, not {mode!r}")
    from tests.transparency.programs import PROGRAMS

    results = {name: run_one(fn) for name, fn in PROGRAMS.items()}
    used = {name: getattr(jax.debug, name).__module__ for name in ("print", "callback")}
    with open(path, "w") as out:
        json.dump({"used": used, "programs": results}, out, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:])

"""Breakpoints in plain Python (scripts, pytest) and in kernels without ``%load_ext jaxdbg``.

Importing :mod:`jaxdbg_widgets` registers :func:`standalone_backend` as ``jaxdbg`` in JAX's
debugger registry, unless the extension already registered its own. It serves:

- every ``jdw.breakpoint``/``breakpoint_if`` hit (recognised by the core's frame type): the
  typed prompt in an interactive terminal, the widget or stdin in a kernel, else the headless
  policy, so ``python script.py < /dev/null`` never waits;
- ``jax.debug.breakpoint`` hits only while a ``jdw.script`` block or queue answers breakpoints
  or ``$JAXDBG_HEADLESS`` is set. Otherwise they go to the backend JAX would have picked
  without this package (its terminal debugger), so plain JAX behaves exactly as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.frames import Frame
from jaxdbg_widgets.debugger.serve import backend, headless, scripts


def standalone_backend(frames: Sequence[Any], thread_id: int | None, **kwargs: Any) -> None:
    """Serve our own breakpoints (and scripted or headless runs); hand the rest to JAX's."""
    ours = bool(frames) and isinstance(frames[0], Frame)
    if ours or scripts.active() is not None or os.environ.get(headless.ENV_VAR):
        backend.debugger_backend(frames, thread_id, **kwargs)
        return
    _jax_choice()(frames, thread_id, **kwargs)


def _jax_choice() -> Callable[..., None]:
    """The highest-priority backend other than ours: what JAX would use without this package."""
    others = [name for name, _ in jax_registry.backends() if name != backend.BACKEND_NAME]
    if not others:
        raise RuntimeError("no JAX debugger backend other than jaxdbg is registered")
    return jax_registry.lookup(others[0])


def install() -> None:
    """Register :func:`standalone_backend` unless a ``jaxdbg`` backend is registered already."""
    if not jax_registry.available():
        return
    if backend.BACKEND_NAME not in dict(jax_registry.backends()):
        jax_registry.register(backend.BACKEND_NAME, standalone_backend, backend.PRIORITY)

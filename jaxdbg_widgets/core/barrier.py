"""``effects_barrier``: wait for pending host callbacks, recoverably, and again at exit.

``jax.effects_barrier`` keeps a failed runtime token forever, so every later barrier (and
interpreter exit) raises the same error again. This barrier waits on every token, clears
them all, and then raises the first failure as the callback's own exception when known.
"""

from __future__ import annotations

import atexit
import logging

from jaxdbg_widgets.core._jax_internals import pending_runtime_tokens
from jaxdbg_widgets.core.errors import reraise_original

logger = logging.getLogger("jaxdbg_widgets")


def effects_barrier() -> None:
    """Wait until every dispatched computation has run its debug callbacks."""
    tokens, token_set = pending_runtime_tokens()
    failures = []
    for token in tokens:
        try:
            token.block_until_ready()
        except Exception as error:
            failures.append(error)
    token_set.clear()
    if failures:
        reraise_original(failures[0])


def _barrier_at_exit() -> None:
    try:
        effects_barrier()
    except Exception:
        logger.error("a debug callback failed before exit", exc_info=True)


atexit.register(_barrier_at_exit)

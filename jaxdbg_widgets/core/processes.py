"""Which process of a multi-process JAX job is printing, and the label its lines carry.

In a job joined by ``jax.distributed`` every process runs the same program and prints to its
own stdout; the label ``[process 1]`` tells the lines apart once they meet in one notebook.
A process running alone has no index and its lines keep their exact text.
"""

from __future__ import annotations

import jax


def process_index() -> int | None:
    """This process's index in a multi-process job, or ``None`` when it runs alone."""
    return jax.process_index() if jax.process_count() > 1 else None


def label(process: int) -> str:
    """``process 1``: how every view names a process."""
    return f"process {process}"


def label_line(process: int | None, text: str) -> str:
    """``[process 1] text`` in a multi-process job, ``text`` unchanged otherwise."""
    return text if process is None else f"[{label(process)}] {text}"

"""``watch_compiles`` and ``max_compiles``: the public entry points of the compile layer."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from jaxdbg_widgets.compiles import recorder
from jaxdbg_widgets.compiles.display import CompileReportView
from jaxdbg_widgets.compiles.model import CompileReport, Program

F = TypeVar("F", bound=Callable[..., Any])
_watching = threading.local()


class TooManyCompiles(RuntimeError):
    """A function compiled more often than ``max_compiles(n)`` allows; names it, where and why."""

    def __init__(self, program: Program, count: int, limit: int) -> None:
        self.program = program
        self.count = count
        self.limit = limit
        name = program.function.name if program.function is not None else program.name
        defined = f" (defined at {program.function.defined.label})" if program.function else ""
        super().__init__(
            f"{name}{defined} compiled {count} times, more than max_compiles({limit}) allows: "
            f"compile {count} called at {program.call_site.label}, because "
            f"{program.cause_text()}"
        )


@contextmanager
def watch_compiles(*, hlo: bool = False) -> Iterator[CompileReportView]:
    """Record every trace, lowering and compile inside the block, on any thread: per function
    and call site the counts, the seconds per stage and the cause of each retrace.

    Works for anything JAX compiles through ``jit`` (``pjit``, ``shard_map`` and ``pmap`` under
    ``jit``, ``nnx.jit``, ``eqx.filter_jit``), plus JAX's own eager operations. Cached calls
    cost nothing: JAX tells the recorder only when it traces or compiles. The yielded report is
    live; it displays as text in a terminal and HTML in a notebook. With ``hlo=True`` each
    program's StableHLO operations are counted per source line too (a miss then costs the
    recorder up to about 15% of JAX's own time, against 2% without). Nesting it in itself on one
    thread raises RuntimeError (read the outer report instead).
    """
    if getattr(_watching, "depth", 0):
        raise RuntimeError(
            "watch_compiles is already watching on this thread: one block at a time "
            "(the outer report sees everything inside)"
        )
    if not isinstance(hlo, bool):
        raise TypeError(f"watch_compiles(hlo=...) takes True or False, got {hlo!r}")
    report = CompileReportView(hlo=hlo)
    stop = recorder.start(report)
    _watching.depth = 1
    try:
        yield report
    finally:
        _watching.depth = 0
        stop()


class _Guard:
    """Counts compiles per function across every use of one ``max_compiles(n)``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.report = CompileReport()
        self.report.listeners.append(self._check)
        self.depth = 0
        self.stop: Callable[[], None] | None = None
        self.lock = threading.Lock()

    def _check(self, program: Program, stage: str) -> None:
        """Raise at the compile that takes a function past the limit (JAX's own ops aside)."""
        if stage != "compile" or (program.function is not None and program.function.jax_own):
            return
        count = self.report.compiles_of(program.key)
        if count > self.limit:
            raise TooManyCompiles(program, count, self.limit)

    def __enter__(self) -> CompileReport:
        with self.lock:
            if self.depth == 0:
                self.stop = recorder.start(self.report)
            self.depth += 1
        return self.report

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0 and self.stop is not None:
                self.stop()
                self.stop = None


class max_compiles:
    """Raise :class:`TooManyCompiles` at the compile that takes any one function past ``n``.

    A context manager (counts start at the ``with``) or a decorator (counts add up over every
    call of the decorated function, so ``@max_compiles(1)`` over ``@jax.jit`` catches a
    retrace on the second call). JAX's own eager operations are not counted; a function is
    counted across new objects built at one definition (a ``jax.jit(lambda ...)`` in a loop).
    """

    def __init__(self, n: int) -> None:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"max_compiles(n) needs an int n, got {type(n).__name__} {n!r}")
        if n < 0:
            raise ValueError(f"max_compiles(n) needs n >= 0, got {n}")
        self.n = n
        self._guard = _Guard(n)

    def __enter__(self) -> CompileReport:
        return self._guard.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._guard.__exit__(*exc)

    def __call__(self, function: F) -> F:
        """Guard every call of ``function``, counting over all of them."""
        guard = _Guard(self.n)

        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            with guard:
                return function(*args, **kwargs)

        guarded.compile_report = guard.report  # type: ignore[attr-defined]
        return guarded  # type: ignore[return-value]

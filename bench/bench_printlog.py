"""What the print log costs: time per print with the log attached, widget traffic, memory held.

Every figure is measured in the same run as its peer. Timed rows race the contenders round by
round in rotating order (``report.race``), so neither always runs first on a warm machine, and
count this process's CPU time, so other work on a shared machine does not enter the figures.
"""

from __future__ import annotations

import contextlib
import gc
import time
import tracemalloc
from collections.abc import Callable

from bench.report import Row, race

PRINTS = 20_000
ROUNDS = 7
LOG_OVERHEAD = 1.25
MAX_MESSAGES_PER_SECOND = 20
COMMAND = "python -m bench printlog"


class _Discard:
    """A stdout that drops the text, so terminal speed does not enter the figures."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _loop(print_fn):
    import jax

    @jax.jit
    def run(n):
        def body(i, total):
            print_fn("step {i} total {t}", i=i, t=total)
            return total + i

        return jax.lax.fori_loop(0, n, body, 0)

    return run


def _prints(run, n: int = PRINTS) -> Callable[[], None]:
    """One round: ``n`` prints to a discarding stdout, warmed up (compiled) once beforehand."""

    def round_() -> None:
        with contextlib.redirect_stdout(_Discard()):
            run(n).block_until_ready()

    with contextlib.redirect_stdout(_Discard()):
        run(10).block_until_ready()
    return round_


def _with_log(round_: Callable[[], None]) -> Callable[[], None]:
    """The same round with a print log attached (as ``%load_ext jaxdbg`` attaches one)."""
    from jaxdbg_widgets.notebook.printlog_display import PrintLog

    def logged() -> None:
        with PrintLog():
            round_()

    return logged


def _time_rows() -> list[Row]:
    import jax

    import jaxdbg_widgets

    ours = _prints(_loop(jaxdbg_widgets.print))
    times = race(
        {
            "jax": _prints(_loop(jax.debug.print)),
            "ours": ours,
            "logged": _with_log(ours),
        },
        rounds=ROUNDS,
        clock=time.process_time,
    )
    per_print = {name: seconds / PRINTS * 1e6 for name, seconds in times.items()}
    return [
        Row(
            "print with the print log attached",
            per_print["logged"],
            per_print["ours"],
            "us CPU/print",
            "same print, no log",
            f"within {LOG_OVERHEAD}x",
            per_print["logged"] <= LOG_OVERHEAD * per_print["ours"],
            f"{COMMAND}  # {ROUNDS} alternating rounds of {PRINTS:,} prints",
        ),
        Row(
            "print without a log",
            per_print["ours"],
            per_print["jax"],
            "us CPU/print",
            "jax.debug.print",
            "within 1.5x",
            per_print["ours"] <= 1.5 * per_print["jax"],
            f"{COMMAND}  # {ROUNDS} alternating rounds of {PRINTS:,} prints",
        ),
    ]


def _messages_per_second(make_sink) -> tuple[float, int]:
    """Messages sent per second while the loop prints, and how many prints the log saw."""
    import jaxdbg_widgets
    from jaxdbg_widgets.notebook.printlog_display import PrintLog

    round_ = _prints(_loop(jaxdbg_widgets.print))
    with PrintLog() as log:
        sent: list[object] = []
        stop = make_sink(log, sent.append)
        start = time.perf_counter()
        round_()
        elapsed = time.perf_counter() - start
        stop()
        return len(sent) / elapsed, log.seen


def _throttled_widget(log, send):
    """The log's own widget, its comm replaced by ``send``."""
    widget = log.widget()
    widget.comm.send = lambda data=None, buffers=None, **_: send(data)

    def stop() -> None:
        time.sleep(2 * widget.throttle.interval)
        widget.close()

    return stop


def _message_per_print(log, send):
    """The naive view: one message with the newest row after every print."""
    return log.subscribe(lambda: send(log.newest(limit=1)))


def _traffic_rows() -> list[Row]:
    ours, seen = _messages_per_second(_throttled_widget)
    peer, _ = _messages_per_second(_message_per_print)
    return [
        Row(
            "widget messages per second during the loop",
            ours,
            peer,
            "msg/s",
            "one message per print",
            f"<= {MAX_MESSAGES_PER_SECOND} msg/s",
            ours <= MAX_MESSAGES_PER_SECOND + 1 and seen == PRINTS,
            COMMAND,
        )
    ]


def _bytes_held(make, fill) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        holder = make()
        fill(holder)
        gc.collect()
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def _memory_rows() -> list[Row]:
    from jaxdbg_widgets.core.sinks import PrintRecord
    from jaxdbg_widgets.notebook.printlog import DEFAULT_CAPACITY
    from jaxdbg_widgets.notebook.printlog_display import PrintLog

    many = 10 * DEFAULT_CAPACITY

    def fill(add):
        for i in range(many):
            add(PrintRecord(f"step {i}", "/m.py", 3, "f", 0.0, (("i", f"i32[] {i}"),), 1))

    ours = _bytes_held(lambda: PrintLog(attach=False), lambda log: fill(log.add))
    peer = _bytes_held(list, lambda records: fill(records.append))
    return [
        Row(
            f"memory held after {many:,} prints",
            ours / 1e6,
            peer / 1e6,
            "MB",
            "every record in a list",
            f"ring of {DEFAULT_CAPACITY:,}: <= 1/5 of the list",
            ours <= peer / 5,
            COMMAND,
        )
    ]


def run() -> list[Row]:
    return [*_time_rows(), *_traffic_rows(), *_memory_rows()]

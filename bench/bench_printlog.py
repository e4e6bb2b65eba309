"""The print log under 100,000 prints: cost per print, messages to the browser, memory held.

Peers measured in the same run: ``jax.debug.print`` for time, one message per print for the
browser traffic an unthrottled view would cause, and an unbounded list for memory.
"""

from __future__ import annotations

import contextlib
import gc
import time
import tracemalloc

from bench.report import Row

PRINTS = 100_000
MAX_MESSAGES_PER_SECOND = 20


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


def _warm(run):
    with contextlib.redirect_stdout(_Discard()):
        run(10).block_until_ready()
    return run


def _seconds(run) -> float:
    with contextlib.redirect_stdout(_Discard()):
        start = time.perf_counter()
        run(PRINTS).block_until_ready()
        return time.perf_counter() - start


def _with_log_and_widget(run) -> tuple[float, int, int]:
    from jaxdbg_widgets.notebook.printlog import PrintLog

    with PrintLog() as log:
        widget = log.widget()
        sent = []
        widget.comm.send = lambda data=None, buffers=None, **_: sent.append(data)
        elapsed = _seconds(run)
        time.sleep(2 * widget.throttle.interval)
        seen = log.seen
        widget.close()
    return elapsed, len(sent), seen


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
    from jaxdbg_widgets.notebook.printlog import DEFAULT_CAPACITY, PrintLog

    def fill(add):
        for i in range(PRINTS):
            add(PrintRecord(f"step {i}", "/m.py", 3, "f", 0.0, (("i", f"i32[] {i}"),), 1))

    ours = _bytes_held(lambda: PrintLog(attach=False), lambda log: fill(log.add))
    peer = _bytes_held(list, lambda records: fill(records.append))
    return [
        Row(
            f"memory held after {PRINTS:,} prints",
            ours / 1e6,
            peer / 1e6,
            "MB",
            "unbounded list",
            f"ring of {DEFAULT_CAPACITY:,} entries",
            ours < peer * 2 * DEFAULT_CAPACITY / PRINTS,
        )
    ]


def run() -> list[Row]:
    import jax

    import jaxdbg_widgets

    jax_seconds = _seconds(_warm(_loop(jax.debug.print)))
    ours_seconds = _seconds(_warm(_loop(jaxdbg_widgets.print)))
    logged_seconds, messages, seen = _with_log_and_widget(_warm(_loop(jaxdbg_widgets.print)))
    rate = messages / logged_seconds
    return [
        Row(
            f"{PRINTS:,} prints, jaxdbg print (no log)",
            ours_seconds,
            jax_seconds,
            "s",
            "jax.debug.print",
            "within 1.5x",
            ours_seconds <= 1.5 * jax_seconds,
        ),
        Row(
            f"{PRINTS:,} prints, log + widget attached",
            logged_seconds,
            jax_seconds,
            "s",
            "jax.debug.print",
            "within 2x",
            logged_seconds <= 2 * jax_seconds and seen == PRINTS,
        ),
        Row(
            "widget messages per second during the loop",
            rate,
            PRINTS / logged_seconds,
            "msg/s",
            "one per print",
            f"<= {MAX_MESSAGES_PER_SECOND} msg/s",
            rate <= MAX_MESSAGES_PER_SECOND + 1,
        ),
        *_memory_rows(),
    ]

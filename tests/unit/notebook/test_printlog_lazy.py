"""The print log builds its entries lazily: a print pays for summaries only once someone reads."""

from __future__ import annotations

import gc

import jax
import numpy as np
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import formatting, sinks
from jaxdbg_widgets.notebook.printlog_display import PrintLog


def _counting_summaries(monkeypatch) -> list[object]:
    calls: list[object] = []
    original = formatting.summarize

    def counted(value, *args, **kwargs):
        calls.append(value)
        return original(value, *args, **kwargs)

    monkeypatch.setattr(sinks, "summarize", counted)
    monkeypatch.setattr(formatting, "summarize", counted)
    return calls


def test_small_values_are_summarized_only_when_the_log_is_read(monkeypatch, capfd):
    calls = _counting_summaries(monkeypatch)
    with PrintLog() as log:
        jax.jit(lambda x: jdw.print("x={x}", x=x))(jnp.arange(3.0))
        jdw.effects_barrier()
        assert calls == []
        (entry,) = log.snapshot()
    assert entry.values == (("x", "f32[3] min=0 max=2"),)
    assert len(calls) == 1
    log.snapshot()
    assert len(calls) == 1
    capfd.readouterr()


def test_large_values_are_summarized_at_once_and_not_kept(monkeypatch, capfd):
    calls = _counting_summaries(monkeypatch)
    with PrintLog() as log:
        jax.jit(lambda x: jdw.print("{}", x.sum(), x=x, skip_format_check=True))(jnp.ones(1000))
        jdw.effects_barrier()
        assert len(calls) == 2
    assert log.snapshot()[0].values[1] == ("x", "f32[1000] min=1 max=1")
    capfd.readouterr()


def test_a_later_change_to_a_printed_numpy_array_does_not_change_its_summary(capfd):
    value = np.zeros(3, np.float32)
    with PrintLog() as log:
        jdw.print("v={v}", v=value)
        value[:] = 7
    assert log.snapshot()[0].values == (("v", "f32[3] min=0 max=0"),)
    capfd.readouterr()


def test_kept_records_are_not_tracked_by_the_garbage_collector(capfd):
    with PrintLog() as log:
        f = jax.jit(lambda x: jdw.print("x={x}", x=x))
        for i in range(3):
            f(i)
        jdw.effects_barrier()
        gc.collect()
        gc.collect()  # a pass untracks the inner tuples, the next their holders
        assert not any(gc.is_tracked(record) for record in log._records)
    capfd.readouterr()


def test_entries_keep_consecutive_indices_after_the_ring_turns_over(capfd):
    with PrintLog(capacity=2) as log:
        for i in range(5):
            jdw.print("i={i}", i=i)
    assert [(e.index, e.text) for e in log] == [(4, "i=3"), (5, "i=4")]
    assert log.newest(limit=1)[0][0].index == 5
    capfd.readouterr()

"""A print that carried arrays expands into their pictures, from the values it already holds."""

from __future__ import annotations

import numpy as np

from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.notebook.printlog import PrintBuffer
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget, entry_row


def _log() -> tuple[PrintBuffer, np.ndarray]:
    log = PrintBuffer(attach=False)
    grid = np.arange(12.0).reshape(3, 4)
    grid[0, 1] = np.nan
    log.add(PrintRecord("x=1", "m.py", 3, "f", 0.0, (("x", "1"),), None))  # summaries only
    log.add(
        PrintRecord(
            "g=… n=2", "m.py", 4, "f", 0.0, (grid, 2.0, np.float32(1)), None, ("g", "n", "s")
        )
    )
    return log, grid


def test_rows_count_the_arrays_their_print_carried():
    log, _ = _log()
    assert [entry_row(e)["arrays"] for e in log.snapshot()] == [0, 1]


def test_printed_arrays_are_the_very_values_the_print_holds():
    log, grid = _log()
    [(name, value)] = log.printed_arrays(2)
    assert name == "g" and value is grid
    assert log.printed_arrays(1) == [] and log.printed_arrays(99) == []


def test_expanding_a_row_draws_its_arrays_and_folding_clears_them():
    log, _ = _log()
    widget = PrintLogWidget(log)
    widget.expanded = 2
    assert widget.pictures["index"] == 2
    [picture] = widget.pictures["view"]["pictures"]
    assert picture["title"] == "g: float64[3, 4]"
    assert (picture["specials"][0]["name"], picture["specials"][0]["count"]) == ("NaN", 1)
    widget.expanded = -1
    assert widget.pictures == {}
    widget.close()


def test_a_real_print_keeps_its_small_arrays_for_pictures_and_large_ones_as_summaries():
    import jax.numpy as jnp

    import jaxdbg_widgets as jdw

    with PrintBuffer() as log:
        jdw.print("{x}", x=jnp.arange(8.0))
        jdw.print("{y}", y=jnp.zeros(1000))
        jdw.effects_barrier()
    small, large = log.snapshot()
    assert (small.arrays, large.arrays) == (1, 0)
    [(name, value)] = log.printed_arrays(small.index)
    assert name == "x" and np.asarray(value).tolist() == list(range(8))


def test_log_rows_and_pictures_name_each_keyword_value_by_its_own_name():
    import jax.numpy as jnp

    import jaxdbg_widgets as jdw

    x = jnp.arange(64.0).reshape(8, 8)
    with PrintBuffer() as log:
        jdw.print("{x} {r}", x=x, r=x[0])
        jdw.effects_barrier()
    [entry] = log.snapshot()
    assert entry_row(entry)["values"] == "x=f32[8,8] min=0 max=63, r=f32[8] min=0 max=7"
    assert [(n, np.shape(v)) for n, v in log.printed_arrays(entry.index)] == [
        ("x", (8, 8)),
        ("r", (8,)),
    ]
    widget = PrintLogWidget(log)
    widget.expanded = entry.index
    titles = [p["title"] for p in widget.pictures["view"]["pictures"]]
    assert titles == ["x: float32[8, 8]", "r: float32[8]"]
    widget.close()


def test_a_print_of_one_value_arrays_offers_no_pictures():
    log = PrintBuffer(attach=False)
    values = (np.array([[3]]), np.ones(1), np.arange(2.0))
    log.add(PrintRecord("t", "m.py", 1, "f", 0.0, values, None, ("a", "b", "c")))
    [entry] = log.snapshot()
    assert entry.arrays == 1
    assert [name for name, _ in log.printed_arrays(entry.index)] == ["c"]

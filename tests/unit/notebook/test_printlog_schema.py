"""The print log widget sends only what ``notebook/printlog_schema.py`` declares, and every key it
declares is sent."""

from __future__ import annotations

import dataclasses

import jax
import numpy as np

from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.notebook import printlog_schema as schema
from jaxdbg_widgets.notebook.printlog_display import PrintLog
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget, entry_row
from jaxdbg_widgets.pictures.schema import SliderView
from tests.unit.notebook.records import record

from ..widget_schema import declared_keys, problems


def _sharded_print() -> PrintRecord:
    """A print that carried a (4, 4) array split over two devices: its picture has shards."""
    mesh = jax.make_mesh((2,), ("d",), devices=jax.devices()[:2])
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("d"))
    value = jax.device_put(np.ones((4, 4), np.float32), sharding)
    return PrintRecord("v=…", "/work/model.py", 8, "step", 0.0, (value,), None, ("v",))


def test_built_states_match_the_schema_and_cover_it():
    log = PrintLog(capacity=50, attach=False)
    log.add(record("x=1"))
    log.add(record("y=2", values=()))
    log.add(_sharded_print())
    widget = PrintLogWidget(log, interval=60)
    try:
        widget.expanded = 3
        names = ("rows", "stats", "query", "limit", "expanded", "pictures", "link")
        model = {name: getattr(widget, name) for name in names}
        seen: set[str] = set()
        assert problems(model, schema.PrintLogModel, seen=seen) == []
        never_drawn = declared_keys(SliderView)  # the log draws leading axes as facets
        assert declared_keys(schema.PrintLogModel) - seen - never_drawn == set()
        in_a_cell = dataclasses.replace(log.newest("", 1)[0][0], cell=3)
        assert problems(entry_row(in_a_cell), schema.PrintRow) == []
        assert problems({**entry_row(in_a_cell), "cell": "3"}, schema.PrintRow) != []
    finally:
        widget.close()

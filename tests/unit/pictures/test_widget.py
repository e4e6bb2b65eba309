"""The pictures widget answers hovered cells at full resolution and slides between slices."""

from __future__ import annotations

import numpy as np

from jaxdbg_widgets.pictures import show
from jaxdbg_widgets.pictures.widget import PicturesWidget


def test_the_widget_answers_a_probe_with_the_full_resolution_value():
    values = np.arange(2000 * 1500, dtype=np.float32).reshape(2000, 1500) / 3
    widget = PicturesWidget(show({"x": values}))
    widget._handle(widget, {"event": "probe", "picture": 0, "panel": 0, "index": [1999, 7]}, [])
    assert widget.probe == {
        "picture": 0,
        "panel": 0,
        "index": [1999, 7],
        "text": str(values[1999, 7]),
    }
    widget._handle(widget, {"event": "probe", "picture": 0, "panel": 0, "index": [5000, 7]}, [])
    assert widget.probe["index"] == [1999, 7]  # out of range: ignored, the last answer stays


def test_the_widget_slides_to_another_leading_slice_on_the_same_scale():
    values = np.arange(4 * 3 * 5, dtype=np.float32).reshape(4, 3, 5)
    widget = PicturesWidget(show(values, leading="sliders"))
    before = widget.view["pictures"][0]
    assert before["sliders"] == [{"dim": 0, "size": 4, "value": 0}]
    widget._handle(widget, {"event": "slide", "picture": 0, "panel": 0, "index": [2]}, [])
    after = widget.view["pictures"][0]
    assert after["panels"][0]["index"] == [2] and after["sliders"][0]["value"] == 2
    assert after["scale"] == before["scale"]
    widget._handle(widget, {"event": "probe", "picture": 0, "panel": 0, "index": [1, 4]}, [])
    assert widget.probe["index"] == [2, 1, 4] and widget.probe["text"] == str(values[2, 1, 4])


def test_the_widget_bundle_carries_the_static_twin():
    widget = PicturesWidget(show(np.ones((2, 2))))
    assert widget.to_html() == show(np.ones((2, 2))).to_html()

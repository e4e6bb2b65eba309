"""A bool picture is framed and counts True instead of a histogram; only floats list NaN/Inf."""

from __future__ import annotations

import numpy as np

import jaxdbg_widgets as jdw
from jaxdbg_widgets.pictures.view import pictures_view


def _view(values: np.ndarray) -> dict:
    return pictures_view(jdw.show(values))["pictures"][0]


def test_a_bool_picture_reads_false_to_true_with_no_histogram_or_special_values():
    view = _view(np.ones((4, 4), bool))
    assert (view["scale"]["low"], view["scale"]["high"]) == ("False", "True")
    assert view["histogram"] == {"counts": [], "low": "", "high": "", "step": 1}
    assert view["specials"] == []
    assert view["summary"][0] == "True 16 of 16"


def test_a_bool_picture_is_framed_in_the_static_html_and_others_are_not():
    framed = jdw.show(np.ones((4, 4), bool)).to_html()
    assert "image-rendering:pixelated;outline:1px solid" in framed
    assert "NaN" not in framed and "histogram of finite values" not in framed
    assert "outline:1px solid" not in jdw.show(np.arange(16.0).reshape(4, 4)).to_html()


def test_integers_have_no_special_value_counts_and_floats_keep_them():
    assert _view(np.arange(6).reshape(2, 3))["specials"] == []
    floats = _view(np.array([1.0, np.nan]))
    assert [(s["name"], s["count"]) for s in floats["specials"]] == [
        ("NaN", 1),
        ("+Inf", 0),
        ("-Inf", 0),
    ]

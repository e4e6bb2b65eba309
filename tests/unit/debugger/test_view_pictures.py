"""The debugger's pictures: array locals carry thumbnails, and a ``p`` result that is an array
carries its picture (the latest two only, drawn once each)."""

from __future__ import annotations

import numpy as np

from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import PICTURES_SHOWN, ViewBuilder

from .conftest import jax_frames


def _session() -> Session:
    grid = np.arange(12, dtype=np.float32).reshape(3, 4)
    grid[1, 2] = np.nan
    return Session(jax_frames(grid=grid, y=6.0, v=np.arange(5), s=np.float32(2.0)))


def test_array_locals_carry_a_thumbnail_and_other_locals_none():
    rows = {row["name"]: row for row in ViewBuilder(_session()).build()["locals"]}
    assert rows["grid"]["thumb"].startswith("data:image/png;base64,")
    assert rows["v"]["thumb"].startswith("data:image/png;base64,")
    assert "thumb" not in rows["y"]
    assert "thumb" not in rows["s"]  # a 0-d array is its value


def test_a_p_result_that_is_an_array_carries_its_picture_and_text_results_do_not():
    session = _session()
    session.run("p y")
    session.run("p grid * 2")
    transcript = ViewBuilder(session).build()["transcript"]
    assert "picture" not in transcript[0]
    picture = transcript[1]["picture"]
    assert picture["title"] == "grid * 2: float32[3, 4]"
    assert (picture["specials"][0]["name"], picture["specials"][0]["count"]) == ("NaN", 1)


def test_only_the_latest_array_results_are_drawn_and_each_once():
    session = _session()
    for k in range(PICTURES_SHOWN + 2):
        session.run(f"p grid + {k}")
    builder = ViewBuilder(session)
    first = builder.build()["transcript"]
    drawn = [i for i, entry in enumerate(first) if "picture" in entry]
    assert drawn == list(range(2, PICTURES_SHOWN + 2))
    second = builder.build()["transcript"]
    assert second[-1]["picture"] is first[-1]["picture"]  # cached, not drawn again


def test_the_saved_page_keeps_a_p_result_picture():
    from jaxdbg_widgets.debugger.widget import static_html

    session = _session()
    session.run("p grid")
    html = static_html.render(ViewBuilder(session).build("continue"))
    assert html.count("data:image/png;base64,") == 1  # the picture, not the thumbnails
    assert "grid: float32[3, 4]" in html and "NaN 1" in html


def test_a_one_value_array_reads_as_text_without_a_picture_or_thumbnail():
    session = Session(jax_frames(one=np.array([[7]]), single=np.ones(1), v=np.arange(4)))
    session.run("p one")
    session.run("p v")
    view = ViewBuilder(session).build()
    tiny, drawn = view["transcript"]
    assert "picture" not in tiny and "7" in tiny["output"]
    assert drawn["picture"]["title"] == "v: int64[4]"
    rows = {row["name"]: row for row in view["locals"]}
    assert "thumb" not in rows["one"] and "thumb" not in rows["single"]
    assert rows["v"]["thumb"].startswith("data:image/png;base64,")

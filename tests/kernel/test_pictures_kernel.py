"""Pictures in the widget debugger inside a real ipykernel: array locals carry thumbnails, and
the command a thumbnail click sends (``p name``) answers with the array's picture."""

from __future__ import annotations

import pytest

from tests.fixtures.kernel import KernelSession
from tests.kernel.test_debugger_kernel import SETUP, Debugging

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def pictures_kernel(shared_kernel: KernelSession) -> KernelSession:
    result = shared_kernel.execute(SETUP)
    assert result.error is None, result.error
    return shared_kernel


def test_a_thumbnail_click_draws_the_local_and_p_draws_any_array(pictures_kernel):
    dbg = Debugging(pictures_kernel, "print(jax.jit(outer)(jnp.arange(4.0)))")
    rows = {row["name"]: row for row in dbg.view["locals"]}
    assert rows["y"]["thumb"].startswith("data:image/png;base64,")
    view = dbg.command("p y")  # what the browser sends when the thumbnail is clicked
    picture = view["transcript"][-1]["picture"]
    assert picture["title"] == "y: float32[4]" and picture["layout"] == "strip"
    assert picture["panels"][0]["png"].startswith("data:image/png;base64,")
    view = dbg.command("p jnp.where(y > 0, y, jnp.nan)")
    counts = {s["name"]: s["count"] for s in view["transcript"][-1]["picture"]["specials"]}
    assert counts["NaN"] == 2  # sin(3 * [0, 1, 2, 3]) * 2 is > 0 only at 1 and 3
    view = dbg.command("p y.shape")
    assert "picture" not in view["transcript"][-1]
    dbg.send({"type": "command", "line": "c"}, lambda v: v["status"] == "continue")
    result = dbg.finish()
    assert result.error is None, result.error

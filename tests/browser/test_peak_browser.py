"""The peak-memory report in JupyterLab + Chromium: bars by source line open their code and
buffers on a click or a key, the variant table switches the view, the timeline reads the bytes
at a hovered step; the view fits a dark 900 px window, and a saved notebook draws it again after
a reload with no kernel. Screenshots go to test-artifacts/."""

import pytest

from tests.fixtures.lab import LabPage, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

CELLS = [
    "import jax, jax.numpy as jnp\n"
    "import jaxdbg_widgets as jdw\n"
    "S = jax.ShapeDtypeStruct\n"
    "def make_loss(remat):\n"
    "    def layer(h, w):\n"
    "        return jnp.tanh(jnp.tanh(h @ w) @ w), None\n"
    "    if remat:\n"
    "        layer = jax.checkpoint(layer, policy=jax.checkpoint_policies.nothing_saveable)\n"
    "    def loss(ws, x):\n"
    "        h, _ = jax.lax.scan(layer, x, ws)\n"
    "        return (h**2).sum()\n"
    "    return loss\n"
    "ws, x = S((8, 512, 512), jnp.float32), S((256, 512), jnp.float32)\n"
    'steps = {"plain": jax.grad(make_loss(False)), "remat": jax.grad(make_loss(True))}',
    'jdw.peak_memory(steps, ws, x, device_memory="24 MiB")',
]
VIEW = ".jp-OutputArea-output .jdw-standalone-live .jdw-pk"
BAR = f"{VIEW} .jdw-pk-bar"


def _save(page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.context?.model?.dirty === false",
        timeout=30_000,
    )


def _open_first_line(page) -> str:
    """Click the largest line's bar; the text of the buffers it opens."""
    bar = page.locator(BAR).first
    bar.click()
    details = page.locator(f"{VIEW} .jdw-pk-details")
    details.wait_for(timeout=10_000)
    assert bar.get_attribute("aria-expanded") == "true"
    return details.inner_text()


def test_bars_open_their_buffers_variants_switch_and_the_view_lasts(lab_page: LabPage, tmp_path):
    page = lab_page.page
    lab_page.open_notebook(write_notebook(tmp_path / "peak.ipynb", CELLS))
    lab_page.run_all_cells()
    page.locator(BAR).first.wait_for(timeout=60_000)
    view = page.locator(VIEW)
    labels = view.locator(".jdw-pk-bar .jdw-pk-label").all_inner_texts()
    assert labels[0].startswith("In[") and "(" in labels[0], labels  # the cell's line
    assert "arguments" in labels
    shares = [float(t.split("%")[0]) for t in view.locator(".jdw-pk-share").all_inner_texts()]
    assert shares == sorted(shares, reverse=True)

    details = _open_first_line(page)
    assert "h, _ = jax.lax.scan(layer, x, ws)" in details
    assert "residual" in details and "f32[8,256,512]" in details

    frame = view.locator(".jdw-pk-frame")
    reader = view.locator(".jdw-pk-reader")
    assert "(the peak)" in reader.inner_text()
    frame.hover(position={"x": 3, "y": 30})
    assert reader.inner_text().startswith("step 1 of ")
    frame.focus()
    page.keyboard.press("End")
    assert reader.inner_text().startswith("step ") and "in use" in reader.inner_text()
    assert view.locator(".jdw-pk-fitline").count() == 1  # 24 MiB is drawn on the timeline

    rows = view.locator(".jdw-pk-variants tbody tr")
    assert rows.count() == 2
    rows.nth(1).focus()
    page.keyboard.press("Enter")
    assert view.locator(".jdw-pk-title").inner_text().startswith("remat: peak 24.5 MiB")
    assert view.locator(".jdw-pk-details").count() == 0  # its lines start closed
    view.locator(".jdw-pk-bar").nth(1).focus()
    page.keyboard.press(" ")
    view.locator(".jdw-pk-details").wait_for(timeout=10_000)
    lab_page.screenshot("peak-light")

    lab_page.change_theme("JupyterLab Dark")
    page.set_viewport_size({"width": 900, "height": 1000})
    page.wait_for_timeout(300)
    assert view.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "fits 900 px"
    colour = view.locator(".jdw-pk-title").evaluate("el => getComputedStyle(el).color")
    assert colour != "rgb(31, 31, 31)", colour  # the theme's light text, not the fallback
    lab_page.screenshot("peak-dark-900px")

    _save(page)
    page.evaluate("() => window.jupyterapp.serviceManager.kernels.shutdownAll()")
    page.reload()
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    page.locator(BAR).first.wait_for(timeout=60_000)
    assert page.get_by_text("Error displaying widget").count() == 0
    details = _open_first_line(page)  # drawn and answering from the output alone
    assert "f32[" in details
    lab_page.screenshot("peak-after-reload-no-kernel")
    assert lab_page.console_errors == []

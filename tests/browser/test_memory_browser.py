"""The memory widget in JupyterLab + Chromium: hover a device for its totals, click it for its
leaves, filter them, click a leaf for its sharding diagram, sort the leaf table; a 256-device
view's render time is measured and printed (not asserted). Screenshots go to test-artifacts/."""

from pathlib import Path

import pytest

from tests.fixtures.lab import write_notebook

pytestmark = pytest.mark.browser

SETUP = """\
import os
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
import jaxdbg_widgets as jdw
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
put = lambda shape, spec: jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec))
params = {
    "attn": {"q": put((64, 64), P("data", "model")), "k": put((64, 64), P("data", "model"))},
    "embed": put((512, 64), P()),
    "mlp": {"up": put((64, 256), P(None, "model"))},
}
jdw.memory_map(params)"""

POD = """\
import itertools
from dataclasses import dataclass

@dataclass(frozen=True)
class PodDevice:
    id: int
    platform: str = "tpu"
    process_index: int = 0

class Pod:
    devices = [PodDevice(i, process_index=i // 64) for i in range(256)]
    def devices_indices_map(self, shape):
        blocks = [[slice(i * (n // 16), (i + 1) * (n // 16)) for i in range(16)] for n in shape]
        return dict(zip(self.devices, itertools.product(*blocks)))

@dataclass(frozen=True)
class Leaf:
    shape: tuple
    dtype: str
    sharding: object

pod = Pod()
jdw.memory_map({f"layer{i}": Leaf((1024, 1024 + 16 * i), "bfloat16", pod) for i in range(64)})"""


@pytest.fixture
def notebook(tmp_path) -> Path:
    return write_notebook(tmp_path / "memory_browser.ipynb", [SETUP, POD])


def test_hover_click_device_click_leaf_and_sort(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    lab_page.run_all_cells()
    first = page.locator(".jp-OutputArea-output .jdw-mem").first
    cells = first.locator(".jdw-mem-cell")
    cells.first.wait_for(timeout=60_000)
    assert cells.count() == 8

    cells.nth(3).hover()
    tooltip = first.locator(".jdw-mem-tooltip")
    tooltip.wait_for(state="visible")
    lines = tooltip.inner_text().splitlines()
    assert lines[0] == "device 3 · CPU · process 0"
    assert lines[1] == "148 KiB (151,552 bytes) in 4 leaves"
    assert lines[-1] == "limit: not reported"
    lab_page.screenshot("memory-hover")

    cells.nth(3).click()
    panel = first.locator(".jdw-mem-device")
    panel.locator("tr[data-leaf]").first.wait_for()
    paths = panel.locator(".jdw-mem-leaf").all_inner_texts()
    assert paths[0] == "['embed']"  # the replicated embedding is the largest on every device
    assert set(paths) == {"['embed']", "['attn']['q']", "['attn']['k']", "['mlp']['up']"}
    first.locator(".jdw-mem-filter").fill("attn")
    page.wait_for_function(
        "() => document.querySelectorAll('.jdw-mem-device tr[data-leaf]').length === 2"
    )

    panel.locator(".jdw-mem-leaf", has_text="['attn']['q']").click()
    diagram = first.locator(".jdw-mem-diagram")
    diagram.locator(".jdw-shw-cell").first.wait_for(timeout=30_000)
    assert "sharding of ['attn']['q']" in diagram.inner_text()
    assert diagram.locator(".jdw-shw-cell").count() == 8
    page.mouse.move(0, 0)
    lab_page.screenshot("memory-device-and-leaf")

    first.locator(".jdw-mem-filter").fill("")
    table = first.locator(".jdw-mem-leaves")
    assert table.locator(".jdw-mem-leaf").first.inner_text() == "['embed']"
    assert "jdw-mem-flag" in table.locator("tr[data-leaf]").first.get_attribute("class")
    table.locator(".jdw-mem-sort[data-sort='path']").click()
    assert table.locator(".jdw-mem-leaf").first.inner_text() == "['attn']['k']"

    cells.nth(0).focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.device") == "1"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.jdw-mem-device .jdw-mem-title')"
        "?.textContent.startsWith('device 1')"
    )
    assert lab_page.console_errors == []


def test_a_256_device_view_renders_and_its_time_is_reported(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    lab_page.run_all_cells()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jdw-mem')]"
        ".some(m => m.querySelectorAll('.jdw-mem-cell').length === 256)",
        timeout=60_000,
    )
    pod_view = page.locator(".jdw-mem").nth(1)
    pod_view.scroll_into_view_if_needed()
    heatmap = pod_view.locator(".jdw-mem-scroll")
    heatmap.screenshot(path=str(lab_page.screenshot("memory-256-devices")))
    elapsed = page.evaluate(
        """async () => {
        const app = window.jupyterapp;
        app.shell.currentWidget.content.activeCellIndex = 1;
        const before = document.querySelectorAll('.jdw-mem').length;
        const start = performance.now();
        await app.commands.execute('notebook:create-output-view');
        while (true) {
          const views = [...document.querySelectorAll('.jdw-mem')];
          if (views.length > before
              && views.at(-1).querySelectorAll('.jdw-mem-cell').length === 256) break;
          await new Promise(requestAnimationFrame);
        }
        return performance.now() - start;
    }"""
    )
    print(f"\n256-device memory view rendered in {elapsed:.0f} ms (new output view, in browser)")
    page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme',"
        " {theme: 'JupyterLab Dark'})"
    )
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    first = page.locator(".jdw-mem").first
    flagged = first.locator("tr.jdw-mem-flag td").first
    colors = flagged.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    )
    assert colors[0] != colors[1]
    first.screenshot(path=str(lab_page.screenshot("memory-dark")))
    assert lab_page.console_errors == []

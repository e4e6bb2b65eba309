"""The sharding widget in JupyterLab + Chromium: hover shows the tooltip, a click highlights every
shard of the clicked devices and reaches the kernel, zoom works; screenshots go to test-artifacts/."""

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
x = jax.device_put(jnp.zeros((16, 32), jnp.float32), NamedSharding(mesh, P(None, "model")))
w = jdw.ShardingWidget.from_array(x)
w"""


@pytest.fixture
def notebook(tmp_path) -> Path:
    return write_notebook(
        tmp_path / "sharding_browser.ipynb",
        [SETUP, "print('selected', w.selected, 'zoom', w.zoom)"],
    )


def _opacity(locator) -> float:
    return float(locator.evaluate("el => getComputedStyle(el).opacity"))


def test_hover_tooltip_click_highlight_and_zoom(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")
    cells = page.locator(".jp-OutputArea-output .jdw-shw-cell")
    cells.first.wait_for(timeout=60_000)
    assert cells.count() == 4
    assert cells.nth(1).inner_text() == "CPU 1,5"

    cells.nth(1).hover()
    tooltip = page.locator(".jdw-shw-tooltip")
    tooltip.wait_for(state="visible")
    assert tooltip.inner_text().splitlines() == [
        "CPU 1, 5",
        "process 0",
        "index [0:16, 8:16]",
        "shard shape (16, 8)",
        "512 bytes",
    ]
    lab_page.screenshot("sharding-hover")

    cells.nth(1).click()
    page.wait_for_function(
        "() => document.querySelectorAll('.jdw-shw-cell.jdw-shw-on').length === 1"
    )
    assert "jdw-shw-on" in cells.nth(1).get_attribute("class")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelectorAll('.jdw-shw-cell')[0]).opacity < 0.5"
    )
    assert _opacity(cells.nth(1)) == 1.0
    assert "device" in page.locator(".jdw-shw-status").inner_text()
    page.locator(".jdw-shw-bar button", has_text="+").click()
    page.wait_for_function(
        "() => document.querySelector('.jdw-shw-zoomval').textContent === '125%'"
    )
    page.mouse.move(0, 0)
    lab_page.screenshot("sharding-highlight")

    page.evaluate(
        "() => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = 1;"
        " return window.jupyterapp.commands.execute('notebook:run-cell'); }"
    )
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-OutputArea-output')]"
        ".some(o => o.textContent.includes('selected [1, 5] zoom 1.25'))",
        timeout=60_000,
    )
    assert lab_page.console_errors == []


SHARDING_NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "sharding.ipynb"
POD = """\
import itertools
from dataclasses import dataclass
import jaxdbg_widgets as jdw

@dataclass(frozen=True)
class PodDevice:
    id: int
    platform: str = "tpu"
    process_index: int = 0

class Pod:
    devices = [PodDevice(i, process_index=i // 256) for i in range(4096)]
    def devices_indices_map(self, shape):
        blocks = [[slice(i * (n // 64), (i + 1) * (n // 64)) for i in range(64)] for n in shape]
        return dict(zip(self.devices, itertools.product(*blocks)))

jdw.ShardingWidget((4096, 4096), Pod(), dtype="bfloat16")"""


def test_sharding_notebook_in_a_dark_theme(lab_page):
    page = lab_page.page
    lab_page.open_notebook(SHARDING_NOTEBOOK)
    page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme',"
        " {theme: 'JupyterLab Dark'})"
    )
    lab_page.run_all_cells()
    page.wait_for_function(
        "() => document.querySelectorAll('.jdw-shw').length === 7"
        " && document.querySelectorAll('.jdw-shd').length === 2",  # plus Mesh, NamedSharding
        timeout=60_000,
    )
    text = "\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())
    assert "Traceback" not in text
    background = page.locator(".jdw-shw-scroll").first.evaluate(
        "el => getComputedStyle(el).backgroundColor"
    )
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    lab_page.screenshot("sharding-notebook-dark")
    assert lab_page.console_errors == []


def test_four_thousand_devices_fit_and_stay_readable(lab_page, tmp_path):
    path = write_notebook(tmp_path / "pod.ipynb", [POD])
    page = lab_page.page
    lab_page.open_notebook(path)
    lab_page.run_all_cells()
    cells = page.locator(".jdw-shw-cell")
    cells.first.wait_for(timeout=60_000)
    assert cells.count() == 4096
    scroll = page.locator(".jdw-shw-scroll")
    assert scroll.evaluate("el => el.scrollWidth > el.clientWidth")
    label = cells.nth(4095)
    label.scroll_into_view_if_needed()
    assert label.inner_text() == "TPU 4095 p15"
    assert label.evaluate("el => el.scrollWidth <= el.clientWidth")  # label not clipped
    lab_page.screenshot("sharding-4096-scrolled")
    page.locator(".jdw-shw-bar button", has_text="fit").click()
    # within 1%: at a 1.7px font Chrome rounds character widths to whole pixels
    page.wait_for_function(
        "() => { const s = document.querySelector('.jdw-shw-scroll');"
        " return s.scrollWidth <= s.clientWidth * 1.01; }"
    )
    assert page.locator(".jdw-shw-zoomval").inner_text() != "100%"
    lab_page.screenshot("sharding-4096-fit")
    assert lab_page.console_errors == []

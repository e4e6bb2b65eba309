"""The sharding widget in JupyterLab + Chromium: hover shows the tooltip, a click highlights every
shard of the clicked devices and reaches the kernel, zoom works; screenshots go to test-artifacts/."""

from pathlib import Path

import pytest

from tests.fixtures.lab import write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

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
import jaxdbg_widgets as jdw
from jaxdbg_widgets.sharding.stand_in import GridSharding

jdw.ShardingWidget((4096, 4096), GridSharding((64, 64), per_process=256), dtype="bfloat16")"""


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


POLISH = """\
import jaxdbg_widgets as jdw
from jaxdbg_widgets.sharding.stand_in import GridSharding

pod = jdw.ShardingWidget((1024, 1024), GridSharding((16, 16), per_process=64), min_width=7)
pod"""
FACETS = """\
jdw.ShardingWidget((8, 8, 16), GridSharding((8, 1, 4), platform="cpu"))"""


def test_facets_wrap_and_fit_keeps_256_labels_readable(lab_page, tmp_path):
    page = lab_page.page
    page.set_viewport_size({"width": 1000, "height": 1000})
    lab_page.open_notebook(write_notebook(tmp_path / "polish.ipynb", [POLISH, FACETS]))
    lab_page.run_all_cells()
    widgets = page.locator(".jp-OutputArea-output .jdw-shw")
    widgets.nth(1).locator(".jdw-shw-cell").first.wait_for(timeout=60_000)

    facets = widgets.nth(1)
    scroll = facets.locator(".jdw-shw-scroll")
    assert facets.locator(".jdw-shw-facet").count() == 8
    assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth")  # wrapped, not scrolled
    tops = facets.locator(".jdw-shw-facet").evaluate_all("fs => fs.map(f => f.offsetTop)")
    assert len(set(tops)) > 1

    pod = widgets.nth(0)
    pod.locator(".jdw-shw-bar button", has_text="fit").click()
    page.wait_for_function(
        "el => el.scrollWidth <= el.clientWidth * 1.01",
        arg=pod.locator(".jdw-shw-scroll").element_handle(),
    )
    cell = pod.locator(".jdw-shw-cell").nth(255)
    assert cell.inner_text().split() == ["255", "p3"]  # the platform is in the header
    size = float(cell.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert size >= 10, f"labels {size:.1f}px high after fit"
    label = cell.locator(".jdw-shw-label")
    assert label.evaluate("el => el.scrollWidth <= el.clientWidth")  # not cut
    cell.click()
    page.wait_for_function("el => el.classList.contains('jdw-shw-on')", arg=cell.element_handle())
    assert cell.evaluate("el => getComputedStyle(el).outlineOffset") == "0px"  # outside the label
    lab_page.screenshot("sharding-256-fit")
    assert lab_page.console_errors == []


def test_cells_are_reached_and_selected_with_the_keyboard(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")
    cells = page.locator(".jp-OutputArea-output .jdw-shw-cell")
    cells.first.wait_for(timeout=60_000)
    page.locator(".jdw-shw-bar button", has_text="fit").focus()
    page.keyboard.press("Tab")
    assert cells.nth(0).evaluate("el => el === document.activeElement")
    page.keyboard.press("ArrowRight")
    assert cells.nth(1).evaluate("el => el === document.activeElement")
    tooltip = page.locator(".jdw-shw-tooltip")
    tooltip.wait_for(state="visible")
    assert tooltip.inner_text().splitlines()[0] == "CPU 1, 5"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.jdw-shw-cell.jdw-shw-on')?.dataset.cell === '1'"
    )
    assert cells.nth(1).get_attribute("aria-selected") == "true"
    page.keyboard.press("End")
    assert cells.nth(3).evaluate("el => el === document.activeElement")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.jdw-shw-cell.jdw-shw-on')")
    assert lab_page.console_errors == []

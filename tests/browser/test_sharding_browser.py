"""The sharding widget in JupyterLab + Chromium: hover shows the tooltip, a click highlights every
shard of the clicked devices and reaches the kernel, zoom works; screenshots go to test-artifacts/."""

import base64
import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from jaxdbg_widgets import ShardingWidget
from jaxdbg_widgets._assets import inlined_module
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
    lab_page.change_theme("JupyterLab Dark")
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


# The 4,096-device grid's DOM must not grow with the device count (asserted); its draw (target
# under 300 ms), highlight and tooltip times (under 50 ms) are printed for docs/sharding.md, not
# asserted: tests assert behaviour, never wall-clock times.
NODES_AT_MOST = 120

# Times from a real input event (the `start` event's timeStamp) to the end of the frame that
# draws the answer to the `end` event: a capture listener on the window asks for the next
# animation frame, and a task queued from it runs once that frame is painted. Long tasks are
# kept as they happen.
TIMER = """() => {
  window.jdwTimeNext = ([start, end]) => {
    window.jdwTiming = new Promise((resolve) => {
      const paintedSince = (first) => () =>
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - first.timeStamp), 0));
      window.addEventListener(start, (first) => {
        if (end === start) paintedSince(first)();
        else window.addEventListener(end, paintedSince(first), { capture: true, once: true });
      }, { capture: true, once: true });
    });
  };
  window.jdwLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.jdwLongTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask" });
}"""

# Draws the same view again beside the live widget, as a saved output does, and times it from
# the call to `render` to the end of the first painted frame after the grid is fitted.
DRAW = """async ({ widgetUrl, mountUrl, state }) => {
  const [{ default: widget }, { mount }] = await Promise.all([import(widgetUrl), import(mountUrl)]);
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const output = document.querySelector(".jdw-shw").closest(".jp-OutputArea-output");
  const host = document.createElement("div");
  const data = document.createElement("script");
  data.type = "application/json";
  data.textContent = JSON.stringify({ state });
  host.append(data);
  output.append(host);
  await frame();
  const start = performance.now();
  mount(host, widget);
  const scroll = host.querySelector(".jdw-shw-scroll");
  const zoom = host.querySelector(".jdw-shw-zoomval");
  while (zoom.textContent === "100%" || scroll.scrollWidth > scroll.clientWidth * 1.01) {
    await frame();
    if (performance.now() - start > 20000) throw new Error("never fitted");
  }
  await frame();
  const ms = performance.now() - start;
  host.remove();
  return ms;
}"""

# The client points at the middle and near the top left corner of the cell at (row, col) of a
# grid of equal tracks.
CELL_POINT = """([row, col, rows, cols]) => {
  const r = document.querySelector(".jdw-shw-grid").getBoundingClientRect();
  const w = (r.width - 1) / cols, h = (r.height - 1) / rows;
  const x = r.left + 1 + col * w, y = r.top + 1 + row * h;
  return [x + (w - 1) / 2, y + (h - 1) / 2, x + 1, y + 1];
}"""

# At a client point: the colour the cells' canvas draws, as #RRGGBB, and how opaque the
# highlight's veil over it is (0 to 255).
PIXEL = """([x, y]) => {
  const [cells, marks] = document.querySelectorAll(".jdw-shw canvas");
  const r = cells.getBoundingClientRect();
  const ratio = cells.width / r.width;
  const at = (canvas) => canvas.getContext("2d")
    .getImageData(Math.floor((x - r.left) * ratio), Math.floor((y - r.top) * ratio), 1, 1).data;
  const hex = [...at(cells).slice(0, 3)].map((v) => v.toString(16).padStart(2, "0"));
  return ["#" + hex.join("").toUpperCase(), at(marks)[3]];
}"""

NODES = """() => {
  const walker = document.createTreeWalker(document.querySelector(".jdw-shw"), NodeFilter.SHOW_ALL);
  let count = 1;
  while (walker.nextNode()) count += 1;
  return count;
}"""


def _data_url(name: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode(
        inlined_module(name).encode("utf-8")
    ).decode("ascii")


def _timed(page, events: tuple[str, str], action, *args) -> float:
    page.evaluate("events => window.jdwTimeNext(events)", list(events))
    action(*args)
    return page.evaluate(
        "() => Promise.race([window.jdwTiming, new Promise((_, no) =>"
        " setTimeout(() => no(new Error('no event or no frame')), 10000))])"
    )


def _long_tasks(page, since: float) -> list[float]:
    return page.evaluate(
        "since => window.jdwLongTasks.filter(([t]) => t >= since).map(([, d]) => d)", since
    )


def test_four_thousand_devices_fit_and_stay_readable(lab_page, tmp_path):
    from jaxdbg_widgets.sharding.stand_in import GridSharding

    view = ShardingWidget(
        (4096, 4096), GridSharding((64, 64), per_process=256), dtype="bfloat16"
    ).view
    path = write_notebook(tmp_path / "pod.ipynb", [POD])
    page = lab_page.page
    lab_page.open_notebook(path)
    page.evaluate(TIMER)
    started = page.evaluate("() => performance.now()")
    lab_page.run_all_cells()
    page.locator(".jdw-shw canvas").first.wait_for(timeout=60_000)
    # A grid wider than its output starts fitted to the width: within 1% over, as for DOM grids,
    # and not far under.
    fitted = (
        "() => { const s = document.querySelector('.jdw-shw-scroll');"
        " return s.scrollWidth <= s.clientWidth * 1.01 && s.scrollWidth >= s.clientWidth * 0.9; }"
    )
    page.wait_for_function(fitted)
    zoom = page.locator(".jdw-shw-zoomval")
    assert zoom.inner_text() != "100%"
    label_px = page.evaluate(
        "() => [...document.querySelectorAll('.jdw-shw-collabel, .jdw-shw-rowlabel')]"
        ".map((e) => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert label_px and min(label_px) >= 10, f"axis labels legible when fitted: {label_px}"
    first = _long_tasks(page, started)
    print(
        f"4,096 devices, live widget from run to fitted: long tasks {sum(first):.0f} ms"
        f" in total, longest {max(first, default=0):.0f} ms"
    )

    nodes = page.evaluate(NODES)
    assert page.locator(".jdw-shw-cell").count() == 0
    draws = sorted(
        page.evaluate(
            DRAW,
            {
                "widgetUrl": _data_url("sharding.js"),
                "mountUrl": _data_url("standalone.js"),
                "state": {"view": view, "selected": [], "zoom": 1.0},
            },
        )
        for _ in range(3)
    )
    lab_page.screenshot("sharding-4096-fitted")

    highlights, tooltips = [], []
    other = page.evaluate(CELL_POINT, [30, 30, 64, 64])[2:]
    for row, col in [(2, 5), (40, 33), (48, 63), (17, 60)]:  # in the box's first view
        x, y, corner_x, corner_y = page.evaluate(CELL_POINT, [row, col, 64, 64])
        device = row * 64 + col
        tooltips.append(_timed(page, ("pointermove", "pointermove"), page.mouse.move, x, y))
        tip = page.locator(".jdw-shw-tooltip")
        assert tip.is_visible()
        assert tip.inner_text().splitlines()[0] == f"TPU {device}"
        highlights.append(_timed(page, ("mousedown", "click"), page.mouse.click, x, y))
        assert page.locator(".jdw-shw-status").inner_text().startswith(f"device {device}: 1 shard")
        assert page.evaluate(PIXEL, [corner_x, corner_y]) == [view["cells"]["color"][device], 0]
        veil = page.evaluate(PIXEL, [*other])[1]
        assert abs(veil - 191) <= 2  # the other cells dimmed to a quarter
        other = corner_x, corner_y
    clears = [_timed(page, ("keydown", "keydown"), page.keyboard.press, "Escape")]
    page.wait_for_function(
        "() => document.querySelector('.jdw-shw-status').textContent.startsWith('click')"
    )
    print(
        f"4,096 devices: draw to the fitted frame {draws[1]:.0f} ms (median of 3;"
        f" {draws[0]:.0f}-{draws[-1]:.0f}), highlight {max(highlights):.0f} ms at most"
        f" ({', '.join(f'{t:.0f}' for t in highlights)}), clear {clears[0]:.0f} ms,"
        f" tooltip {max(tooltips):.0f} ms at most ({', '.join(f'{t:.0f}' for t in tooltips)}),"
        f" {nodes} DOM nodes in the widget"
    )
    assert nodes <= NODES_AT_MOST

    for _ in range(30):
        shown = zoom.inner_text()
        if int(shown.rstrip("%")) >= 100:
            break
        page.locator(".jdw-shw-bar button", has_text="+").click()
        page.wait_for_function(
            "shown => document.querySelector('.jdw-shw-zoomval').textContent !== shown", arg=shown
        )
    assert int(zoom.inner_text().rstrip("%")) >= 100
    assert page.locator(".jdw-shw-scroll").evaluate("el => el.scrollWidth > el.clientWidth")
    stand_in = page.locator(".jdw-shw-focus")
    stand_in.focus()
    page.keyboard.press("End")  # the last shard, scrolled into view and drawn
    assert stand_in.get_attribute("data-cell") == "4095"
    assert page.locator(".jdw-shw-tooltip").inner_text().splitlines()[0] == "TPU 4095"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.jdw-shw-status').textContent.startsWith('device 4095')"
    )
    page.keyboard.press("Escape")
    page.wait_for_timeout(100)  # the frame that draws the cleared highlight
    box = stand_in.bounding_box()
    assert page.evaluate(PIXEL, [box["x"] + 2, box["y"] + 2]) == [view["cells"]["color"][4095], 0]
    label_fits = stand_in.evaluate(
        "el => el.parentElement.querySelector('canvas').getContext('2d')"
        ".measureText('TPU 4095 p15').width + 4 <= el.clientWidth"
    )
    assert label_fits  # drawn whole, not cut
    lab_page.screenshot("sharding-4096-scrolled")
    page.locator(".jdw-shw-bar button", has_text="fit").click()
    page.wait_for_function(fitted)
    lab_page.screenshot("sharding-4096-fit")

    # The lines between cells in each theme's --jp-border-color1 (md-grey-400, md-grey-700),
    # once the theme's styles have loaded and the grid has been drawn again.
    expected = {"JupyterLab Light": "#BDBDBD", "JupyterLab Dark": "#616161"}
    # The canvases cover only what is in view: bring the grid's corner there first.
    page.evaluate("() => document.querySelector('.jdw-shw-grid').scrollIntoView({block: 'start'})")
    gaps = {}
    for theme in expected:
        lab_page.change_theme(theme)
        corner = [*_grid_corner(page)]
        with contextlib.suppress(PlaywrightTimeout):  # the assertion names the colour drawn
            page.wait_for_function(
                f"([x, y, want]) => ({PIXEL})([x, y])[0] === want",
                arg=[*corner, expected[theme]],
                timeout=10_000,
            )
        gaps[theme] = page.evaluate(PIXEL, corner)[0]
    assert gaps == expected
    page.set_viewport_size({"width": 900, "height": 1000})
    page.locator(".jdw-shw-bar button", has_text="fit").click()
    page.wait_for_function(fitted)
    lab_page.screenshot("sharding-4096-dark-900px")
    assert lab_page.console_errors == []


def _grid_corner(page) -> tuple[float, float]:
    """A client point on the line around the first grid, which the canvas draws in the theme's
    border colour."""
    r = page.locator(".jdw-shw-grid").first.bounding_box()
    return r["x"] + 0.5, r["y"] + 0.5


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
    page.wait_for_function(  # fitted to the width by default, before any button is pressed
        "el => el.scrollWidth <= el.clientWidth * 1.01",
        arg=pod.locator(".jdw-shw-scroll").element_handle(),
    )
    assert "jdw-shw-compact" in pod.get_attribute("class")  # labels wrapped to fit
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

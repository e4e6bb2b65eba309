"""The debugger widget in JupyterLab + Chromium: click a frame, evaluate, continue, escaping."""

import pytest

from tests.fixtures.lab import compare_pictures, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab", "notebook7")]

XSS = "<img src=x onerror=alert(1)>"

CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "def inner(x):\n"
    f"    label = {XSS!r}\n"
    "    y = jnp.sin(x) * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return y + 1\n"
    "def outer(x):\n"
    "    z = x * 3\n"
    "    return inner(z).sum()\n"
    "def per_device(block):\n"
    "    jax.debug.breakpoint()\n"
    "    return block * 2\n"
    "mesh = jax.make_mesh((8,), ('i',))\n"
    "sharded = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P('i')))",
    "print('main result', float(jax.jit(outer)(jnp.arange(4.0))))",
    "f = jax.jit(jax.shard_map(per_device, mesh=mesh, in_specs=P('i'), out_specs=P('i')))\n"
    "print('worker result', float(f(sharded).sum()))",
]


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(tmp_path / "debugger_browser.ipynb", CELLS)


@pytest.fixture
def unfiltered_notebook(tmp_path):
    """The same program, but the first breakpoint keeps JAX's frames (``filter_frames=False``)."""
    cells = [
        CELLS[0].replace(
            "jax.debug.breakpoint()\n    return y + 1",
            "jax.debug.breakpoint(filter_frames=False)\n    return y + 1",
        ),
        *CELLS[1:],
    ]
    assert cells[0] != CELLS[0]
    return write_notebook(tmp_path / "debugger_unfiltered.ipynb", cells)


def _waiting_widget(page):
    widget = page.locator(".jaxdbg-debugger[data-status='waiting']")
    widget.wait_for(timeout=90_000)
    return widget


def test_click_a_frame_evaluate_and_continue_with_escaping(lab_page, notebook):
    dialogs = []
    page = lab_page.page
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    lab_page.open_notebook(notebook)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

    widget = _waiting_widget(page)
    assert widget.locator(".jaxdbg-dbg-location").inner_text().startswith("inner (In[")
    assert "main thread" in widget.locator(".jaxdbg-dbg-details").inner_text()
    assert (
        widget.locator(".jaxdbg-dbg-line.jaxdbg-current")
        .inner_text()
        .strip()
        .endswith("jax.debug.breakpoint()")
    )
    locals_text = widget.locator(".jaxdbg-dbg-locals").inner_text()
    assert XSS in locals_text
    assert "float32[4]" in locals_text
    lab_page.screenshot("debugger-at-breakpoint")

    widget.locator(".jaxdbg-dbg-frame").nth(1).click()
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-location')"
        "?.textContent.startsWith('outer')",
        timeout=30_000,
    )
    assert "z" in widget.locator(".jaxdbg-dbg-locals").inner_text()

    widget.locator(".jaxdbg-dbg-frame").nth(0).click()
    expression = widget.locator(".jaxdbg-dbg-expression")
    expression.fill("label")
    expression.press("Enter")
    page.wait_for_function(
        "xss => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent.includes(xss))",
        arg=XSS,
        timeout=30_000,
    )
    expression.fill("y.shape")
    expression.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent === '(4,)')",
        timeout=30_000,
    )
    command_line = widget.locator(".jaxdbg-dbg-command-line")
    command_line.fill("w")
    command_line.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent.startsWith('Traceback:'))",
        timeout=30_000,
    )
    expression.press("ArrowUp")
    assert expression.input_value() == "y.shape", "the box's own history: expressions only"
    command_line.press("ArrowUp")
    assert command_line.input_value() == "w"
    assert widget.locator("img:not([src^='data:image/png'])").count() == 0, "only thumbnails"
    assert page.locator(".jp-OutputArea-output img[src='x']").count() == 0
    lab_page.screenshot("debugger-evaluated")

    widget.locator(".jaxdbg-dbg-button[data-command='c']").click()
    lab_page.wait_for_output("main result")
    frozen = page.locator(".jaxdbg-static").first
    frozen.wait_for(timeout=30_000)
    assert "p label" in frozen.inner_text() and "continued" in frozen.inner_text()
    assert XSS in frozen.inner_text()

    worker = _waiting_widget(page)
    assert "worker " in worker.locator(".jaxdbg-dbg-details").inner_text()
    worker.locator(".jaxdbg-dbg-button", has_text="Continue all").click()
    lab_page.wait_for_output("worker result 240.0")
    lab_page.screenshot("debugger-continued")
    assert page.locator(".jaxdbg-debugger[data-status='waiting']").count() == 0
    assert dialogs == []
    assert lab_page.console_errors == []


def test_internal_frames_toggle_and_keyboard_continue_in_dark_theme(lab_page, unfiltered_notebook):
    page = lab_page.page
    lab_page.open_notebook(unfiltered_notebook)
    lab_page.change_theme("JupyterLab Dark")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    widget = _waiting_widget(page)
    user_frames = widget.locator(".jaxdbg-dbg-frame").count()
    widget.locator(".jaxdbg-dbg-internal input").check()
    page.wait_for_function(
        "n => document.querySelectorAll('.jaxdbg-debugger .jaxdbg-dbg-frame').length > n",
        arg=user_frames,
        timeout=30_000,
    )
    assert widget.locator(".jaxdbg-dbg-frame.jaxdbg-internal").count() > 0
    lab_page.screenshot("debugger-dark-internal-frames")
    widget.focus()
    page.keyboard.press("c")
    lab_page.wait_for_output("main result")
    page.locator(".jaxdbg-static").first.wait_for(timeout=30_000)
    worker = _waiting_widget(page)
    worker.locator(".jaxdbg-dbg-button", has_text="Continue all").click()
    lab_page.wait_for_output("worker result 240.0")
    assert lab_page.console_errors == []


SHARD_CELLS = [
    "%load_ext jaxdbg\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "def with_psum(x):\n"
    "    y = x * 2\n"
    "    jax.debug.breakpoint()\n"
    "    return jax.lax.psum(y, 'i') + y\n"
    "mesh = jax.make_mesh((8,), ('i',))\n"
    "sharded = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P('i')))\n"
    "f = jax.jit(jax.shard_map(with_psum, mesh=mesh, in_specs=P('i'), out_specs=P('i')))",
    "print('shard result', float(f(sharded).sum()))",
    "print('after', float(jax.jit(lambda v: (v * 2).sum())(sharded)))",
]


@pytest.fixture
def shard_notebook(tmp_path):
    return write_notebook(tmp_path / "shard_session.ipynb", SHARD_CELLS)


def _shard_widget(page):
    widget = page.locator(".jaxdbg-debugger[data-status='waiting']")
    widget.wait_for(timeout=90_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.jaxdbg-dbg-device-select option').length === 8",
        timeout=30_000,
    )
    return widget


def _run_all(page):
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def test_shard_session_selector_compare_continue_one_and_all(lab_page, shard_notebook):
    page = lab_page.page
    lab_page.open_notebook(shard_notebook)
    _run_all(page)
    widget = _shard_widget(page)
    assert widget.locator(".jaxdbg-dbg-shard-summary").inner_text() == "8 of 8 shards · 8 waiting"
    widget.locator(".jaxdbg-dbg-device-select").select_option("5")
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-details')"
        "?.textContent.includes('i=5')",
        timeout=30_000,
    )
    assert "min=10 max=11" in widget.locator(".jaxdbg-dbg-locals").inner_text()
    compare = widget.locator(".jaxdbg-dbg-compare-input")
    compare.fill("bool(x[0] == 6)")
    compare.press("Enter")
    widget.locator(".jaxdbg-dbg-compare tr.jaxdbg-differs").wait_for(timeout=30_000)
    differing = widget.locator(".jaxdbg-dbg-compare tr.jaxdbg-differs")
    assert differing.count() == 1 and "i=3" in differing.inner_text()
    assert (
        "shard 3 differs: True, 7 others False"
        in widget.locator(".jaxdbg-dbg-compare-verdict").inner_text()
    )
    lab_page.screenshot("debugger-shard-compare")
    widget.locator(".jaxdbg-dbg-button", has_text="Continue this device").click()
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-shard-summary')"
        "?.textContent.endsWith('7 waiting')",
        timeout=30_000,
    )
    widget.locator(".jaxdbg-dbg-button[data-command='c']").click()
    lab_page.wait_for_output("shard result 2160.0")
    assert page.locator(".jaxdbg-debugger[data-status='waiting']").count() == 0
    assert page.locator(".jaxdbg-debugger").count() + page.locator(".jaxdbg-static").count() >= 1
    assert lab_page.console_errors == []


_PIXELS = """() => [...document.querySelectorAll('.jaxdbg-dbg-compare-picture')].map((img) => {
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  return [[...data.slice(0, 3)], [...data.slice(data.length - 4, data.length - 1)]];
})"""


def _compare_pictures(page, widget):
    """A compare of arrays draws one picture per shard on one scale; a click selects one."""
    assert compare_pictures(page, widget, "y", 8) == "one scale: min 0 … max 30"
    labels = widget.locator(".jaxdbg-dbg-compare-tile-label").all_inner_texts()
    assert labels == [f"CPU {i} (i={i})" for i in range(8)]
    pixels = page.evaluate(_PIXELS)
    assert pixels[0][0] != pixels[7][0], "0 and 28 (each shard's minimum) differ on one scale"
    assert pixels[0][1] != pixels[7][1], "and so do 2 and 30 (each shard's maximum)"
    tile = widget.locator(".jaxdbg-dbg-compare-tile").nth(3)
    assert "float32[2], min 12, max 14" in tile.get_attribute("aria-label")
    tile.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-details')"
        "?.textContent.includes('i=3')",
        timeout=30_000,
    )
    selected = widget.locator(".jaxdbg-dbg-compare-tile.jaxdbg-selected")
    selected.wait_for(timeout=30_000)
    assert selected.get_attribute("data-position") == "3"


def test_shard_session_quit_keeps_the_kernel_in_a_narrow_dark_window(lab_page, shard_notebook):
    page = lab_page.page
    page.set_viewport_size({"width": 900, "height": 1000})
    lab_page.open_notebook(shard_notebook)
    lab_page.change_theme("JupyterLab Dark")
    _run_all(page)
    widget = _shard_widget(page)
    _compare_pictures(page, widget)
    fits = page.evaluate(
        "() => { const w = document.querySelector('.jaxdbg-debugger');"
        " const cells = [...w.querySelectorAll('.jaxdbg-dbg-name, .jaxdbg-dbg-type')];"
        " return { overflow: w.scrollWidth - w.clientWidth,"
        " broken: cells.filter(c => c.getClientRects().length > 1"
        " || c.scrollWidth > c.clientWidth + 1).map(c => c.textContent) }; }"
    )
    assert fits == {"overflow": 0, "broken": []}
    lab_page.screenshot("debugger-shards-narrow-dark")
    widget.locator(".jaxdbg-dbg-button", has_text="Quit").click()
    lab_page.wait_for_output("DebuggerQuit")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert "Traceback" not in errors.all_inner_texts().__str__()
    lab_page.wait_kernel_idle()
    page.wait_for_timeout(2_000)  # the kernel drops requests queued right after an error
    page.locator(".jp-Cell .jp-InputArea-editor").nth(2).click()
    page.keyboard.press("Shift+Enter")
    lab_page.wait_for_output("after 240.0")
    assert lab_page.console_errors == []

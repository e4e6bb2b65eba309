import time

import nbformat
import pytest

CELLS = [
    "import ipywidgets as w, time, anywidget, traitlets\n"
    "class Probe(anywidget.AnyWidget):\n"
    "    _esm = 'export default { render({ el }) { const b = document.createElement(\"button\"); b.className = \"probe-button\"; b.textContent = \"any\"; el.append(b); } }'\n",
    "from jaxdbg_widgets.debugger.transports import subshell\nsubshell.debugger_subshell(get_ipython().kernel)\nb = w.Button(description='ipyw-button'); display(b); print('before sleep', flush=True); time.sleep(12); print('after')",
    "from jaxdbg_widgets.debugger import transports\np = Probe(); display(p); inbox = transports.open_inbox(p); print('before sleep 2', flush=True); inbox.get(timeout=12); inbox.close(); print('after 2')",
]


@pytest.fixture
def notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in CELLS]
    path = tmp_path / "render_dbg.ipynb"
    nbformat.write(nb, path)
    return path


def _seen(page, text):
    return page.evaluate(
        "t => [...document.querySelectorAll('.jp-OutputArea-output')].some(o => o.textContent.includes(t))", text)


def test_render(lab_page, notebook):
    lab_page.open_notebook(notebook)
    page = lab_page.page
    run = "() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')"
    page.locator(".jp-Cell").first.click()
    page.evaluate(run)
    lab_page.wait_kernel_idle()
    t0 = time.time()
    page.evaluate(run)
    time.sleep(5)
    print("ipyw: text", _seen(page, "before sleep"), "button", page.locator("text=ipyw-button").count())
    time.sleep(9)
    print("ipyw after: text", _seen(page, "before sleep"), "button", page.locator("text=ipyw-button").count())
    page.evaluate(run)
    time.sleep(5)
    print("any: text", _seen(page, "before sleep 2"), "button", page.locator(".probe-button").count())
    time.sleep(9)
    print("any after: text", _seen(page, "before sleep 2"), "button", page.locator(".probe-button").count())

"""A real JupyterLab click reaches a cell blocked in ``Inbox.get``, on the main thread and on an
XLA worker thread, and the blocked code's state update shows in the widget."""

import nbformat
import pytest

pytestmark = pytest.mark.browser

ESM = """
export default {
  render({ model, el }) {
    const button = document.createElement("button");
    button.className = "probe-button";
    button.textContent = "send";
    let clicks = 0;
    button.addEventListener("click", () => model.send({ click: ++clicks }));
    const ack = document.createElement("span");
    ack.className = "probe-ack";
    const show = () => { ack.textContent = model.get("ack"); };
    model.on("change:ack", show);
    show();
    el.append(button, ack);
  },
};
"""

CELLS = [
    "import threading, anywidget, traitlets\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "from jaxdbg_widgets.debugger import transports\n"
    "class Probe(anywidget.AnyWidget):\n"
    f"    _esm = {ESM!r}\n"
    "    ack = traitlets.Unicode('waiting').tag(sync=True)\n"
    "def show_and_serve(label):\n"
    "    probe = Probe()\n"
    "    display(probe)\n"
    "    with transports.open_inbox(probe) as inbox:\n"
    "        print('listening', label, flush=True)\n"
    "        got = inbox.get(timeout=30)\n"
    "        probe.ack = f'{label} got {got}'\n"
    "        print(label, 'done', got, flush=True)\n"
    "xs = jax.device_put(jnp.arange(8.0), NamedSharding(jax.make_mesh((8,), ('x',)), P('x')))",
    "show_and_serve('main')",
    "jax.jit(lambda v: jax.debug.callback(lambda _: show_and_serve('worker'), v))(xs)\n"
    "jax.effects_barrier()",
]


@pytest.fixture
def notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    path = tmp_path / "transports_browser.ipynb"
    nbformat.write(nb, path)
    return path


def _wait_for_output(page, text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('.jp-OutputArea-output')]"
        ".some(o => o.textContent.includes(text))",
        arg=text,
        timeout=60_000,
    )


def _run_next_cell(page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")


def test_clicks_reach_blocked_cells_on_main_and_worker_threads(lab_page, notebook):
    import re, time as _t, atexit
    frames = []
    def _log(direction, payload):
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        frames.append((round(_t.time(), 3), direction, re.findall(r"msg_type\W+(\w+)", text)[:2], re.findall(r"subshell_id\W+([\w-]+)", text)[:1]))
    def _on_ws(ws):
        ws.on("framesent", lambda p: _log("sent", p))
        ws.on("framereceived", lambda p: _log("recv", p))
    lab_page.page.on("websocket", _on_ws)
    atexit.register(lambda: open('/tmp/frames.log','w').write("\n".join(map(str, frames))))
    lab_page.open_notebook(notebook)
    page = lab_page.page
    page.locator(".jp-Cell").first.click()
    _run_next_cell(page)
    lab_page.wait_kernel_idle()

    for n, label in enumerate(["main", "worker"], start=1):
        _run_next_cell(page)
        _wait_for_output(page, f"listening {label}")
        button = page.locator(".probe-button").nth(n - 1)
        button.wait_for()
        print("visible", _t.time())
        button.click()
        print("clicked", _t.time())
        _wait_for_output(page, f"{label} done {{'click': 1}}")
        page.wait_for_function(
            "([n, text]) => document.querySelectorAll('.probe-ack')[n]?.textContent === text",
            arg=[n - 1, f"{label} got {{'click': 1}}"],
            timeout=60_000,
        )
    lab_page.wait_kernel_idle()
    lab_page.screenshot("transports-clicks")
    assert lab_page.console_errors == []

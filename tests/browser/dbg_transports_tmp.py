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
    "def serve(label):\n"
    "    with transports.open_inbox(probe) as inbox:\n"
    "        print('listening', label, flush=True)\n"
    "        got = inbox.get(timeout=40)\n"
    "        probe.ack = f'{label} got {got}'\n"
    "        print(label, 'done', got, flush=True)\n"
    "import time\n"
    "def show_and_serve(label):\n"
    "    global probe\n"
    "    probe = Probe()\n"
    "    display(probe)\n"
    "    open('/tmp/route.log','a').write(f'{time.time():.3f} displayed\\n')\n"
    "    serve(label)\n",
    "warm = Probe(); warm",
    "show_and_serve('main')",
    "xs = jax.device_put(jnp.arange(8.0), NamedSharding(jax.make_mesh((8,), ('x',)), P('x')))\n"
    "jax.jit(lambda v: jax.debug.callback(lambda _: serve('worker'), v))(xs)\n"
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
        timeout=30_000,
    )


def _wait_for_ack(page, text: str) -> None:
    page.wait_for_function(
        "text => document.querySelector('.probe-ack')?.textContent === text",
        arg=text,
        timeout=30_000,
    )


def test_clicks_reach_blocked_cells_on_main_and_worker_threads(lab_page, notebook):
    import re, time as _t
    frames = []
    def _log(direction, payload):
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        kinds = re.findall(r"msg_type\W+(\w+)", text)
        frames.append((round(_t.time(), 3), direction, kinds[:2]))
    def _on_ws(ws):
        ws.on("framesent", lambda p: _log("sent", p))
        ws.on("framereceived", lambda p: _log("recv", p))
    lab_page.page.on("websocket", _on_ws)
    import atexit
    atexit.register(lambda: open('/tmp/frames.log','w').write("\n".join(map(str, frames))))
    lab_page.open_notebook(notebook)
    page = lab_page.page
    run = "() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')"
    page.locator(".jp-Cell").first.click()
    page.evaluate(run)
    page.evaluate(run)
    page.locator(".probe-button").first.wait_for(timeout=30_000)
    lab_page.wait_kernel_idle()
    print("warm widget rendered")
    page.evaluate(run)
    button = page.locator(".probe-button").nth(1)

    import time as _t
    button.wait_for(timeout=30_000)
    print("button visible at", _t.time())
    _wait_for_output(page, "listening main")
    print("listening seen at", _t.time())
    button.click()
    _wait_for_output(page, "main done {'click': 1}")
    _wait_for_ack(page, "main got {'click': 1}")



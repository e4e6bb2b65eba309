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

DEBUG = """
import threading, time
from ipykernel.comm.comm import BaseComm
_orig_route = BaseComm._reply_subshell_for
def _route(self, d, default):
    out = _orig_route(self, d, default)
    with open('/tmp/route.log', 'a') as f:
        f.write(f'{time.time():.3f} base route {self.comm_id} {id(self)} {sorted(vars(self))} {d!r} -> {out!r}\\n')
    return out
BaseComm._reply_subshell_for = _route
import comm.base_comm as cb
_orig_handle = cb.CommManager.comm_msg
def _comm_msg(self, stream, ident, msg):
    with open('/tmp/route.log', 'a') as f:
        f.write(f'comm_msg {msg["content"]!r} on {threading.current_thread().name}\\n')
    return _orig_handle(self, stream, ident, msg)
cb.CommManager.comm_msg = _comm_msg
"""

CELLS = [DEBUG, 
    "import threading, anywidget, traitlets\n"
    "import jax, jax.numpy as jnp\n"
    "from jax.sharding import NamedSharding, PartitionSpec as P\n"
    "from jaxdbg_widgets.debugger import transports\n"
    "class Probe(anywidget.AnyWidget):\n"
    f"    _esm = {ESM!r}\n"
    "    ack = traitlets.Unicode('waiting').tag(sync=True)\n"
    "def serve(label):\n"
    "    with transports.open_inbox(probe) as inbox:\n"
    "        open('/tmp/route.log','a').write(f'{time.time():.3f} open {probe.comm.comm_id} {id(probe.comm)} {sorted(vars(probe.comm))}\\n')\n"
    "        print('listening', label, flush=True)\n"
    "        got = inbox.get(timeout=20)\n"
    "        probe.ack = f'{label} got {got}'\n"
    "        print(label, 'done', got, flush=True)\n"
    "probe = Probe()\n"
    "probe",
    "serve('main')",
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
        timeout=25_000,
    )


def _wait_for_ack(page, text: str) -> None:
    page.wait_for_function(
        "text => document.querySelector('.probe-ack')?.textContent === text",
        arg=text,
        timeout=25_000,
    )


def test_clicks_reach_blocked_cells_on_main_and_worker_threads(lab_page, notebook):
    lab_page.open_notebook(notebook)
    page = lab_page.page
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    button = page.locator(".probe-button")
    button.wait_for(timeout=25_000)

    _wait_for_output(page, "listening main")
    button.click()
    _wait_for_output(page, "main done {'click': 1}")
    _wait_for_ack(page, "main got {'click': 1}")

    _wait_for_output(page, "listening worker")
    button.click()
    _wait_for_output(page, "worker done {'click': 2}")
    _wait_for_ack(page, "worker got {'click': 2}")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-InputArea-prompt')]"
        ".every(p => /\\[\\d+\\]/.test(p.textContent))",
        timeout=25_000,
    )
    lab_page.screenshot("transports-clicks")
    assert lab_page.console_errors == []

"""A notebook with every kind of output the tools make, executed and saved: no output is a
widget view (JupyterLab and Notebook 7 would show "model not found" for it after a restart), and
the print log's output holds the prints of the cells run after it was shown."""

from __future__ import annotations

import json
import os
import re

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.kernel

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CELLS = {
    "setup": (
        "%load_ext jaxdbg\n"
        "import jax, jax.numpy as jnp, numpy as np\n"
        "import jaxdbg_widgets as jdw\n"
        "from jax.sharding import NamedSharding, PartitionSpec as P\n"
        "mesh = jax.make_mesh((8,), ('x',))\n"
        "x = jax.device_put(jnp.ones((8, 16)), NamedSharding(mesh, P('x')))\n"
        "params = {'w': x}\n"
        "step = jax.jit(lambda v: v - v.sum(0, keepdims=True))"
    ),
    "sharding": "jax.debug.visualize_array_sharding(x)",
    "memory": "%jaxdbg memory params",
    "comms": "jdw.communication_map(step, x)",
    "peak": "%jaxdbg peak step(x)",
    "compiles": "%jaxdbg compiles",
    "pictures": "jdw.show({'grid': np.linspace(-1, 1, 300 * 400).reshape(300, 400)})",
    "report": "jdw.find_nonfinite(jnp.log, jnp.array([-1.0, 2.0]))",
    "log": "%jaxdbg log",
    "later": "jax.jit(lambda v: jdw.print('printed later: {v}', v=v))(jnp.arange(3.0))",
}


def _executed(tmp_path) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS.values()]
    env = dict(os.environ)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"env": env})
    client.execute()
    path = tmp_path / "every-output.ipynb"
    nbformat.write(notebook, path)
    return nbformat.read(path, as_version=4)


def test_a_saved_notebook_has_no_widget_view_and_the_log_shows_later_prints(tmp_path):
    saved = _executed(tmp_path)
    outputs = dict(zip(CELLS, (cell.outputs for cell in saved.cells), strict=True))
    for name, shown in outputs.items():
        errors = [o for o in shown if o.output_type == "error"]
        assert errors == [], (name, errors)
        assert not [o for o in shown if WIDGET_VIEW in o.get("data", {})], name
    for name in ("sharding", "memory", "comms", "peak", "compiles", "pictures", "report", "log"):
        html = [o.data["text/html"] for o in outputs[name] if "text/html" in o.get("data", {})]
        assert html, (name, outputs[name])
    [log_html] = [o.data["text/html"] for o in outputs["log"]]
    assert "printed later" in log_html
    for name in ("pictures", "report", "log"):
        html = next(o.data["text/html"] for o in outputs[name] if "text/html" in o.get("data", {}))
        payload = json.loads(re.search(r'type="application/json">(.*?)</script>', html).group(1))
        assert re.fullmatch(r"[0-9a-f]{32}", payload["link"]), name

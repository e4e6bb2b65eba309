"""The job's one debugger widget in JupyterLab + Chromium: a ``%%px`` cell stops on every
process of 4 ipyparallel engines; the process × device selector picks a device of another
process, ``p`` answers from that process, and Continue releases them all."""

import uuid

import pytest

from tests.fixtures.lab import compare_pictures, write_notebook

pytestmark = [pytest.mark.browser, pytest.mark.frontends("lab")]


def _cells() -> list[str]:
    cluster_id = f"browser-{uuid.uuid4().hex[:8]}"  # a cluster of its own, never an earlier one
    return [
        "import jaxdbg_widgets as jdw\n"
        f"rc = jdw.cluster(4, devices_per_engine=2, cluster_id={cluster_id!r}, log_level=40)",
        "%%px --progress-after -1\n"
        "import jax\n"
        "import numpy as np\n"
        "from jax.sharding import NamedSharding, PartitionSpec as P\n"
        "mesh = jax.make_mesh((jax.device_count(),), ('x',))\n"
        "x = jax.make_array_from_process_local_data(\n"
        "    NamedSharding(mesh, P('x')), np.arange(2.0) + 10 * jax.process_index()\n"
        ")",
        # Plain %%px: with --progress-after -1 ipyparallel stops waiting when the results
        # arrive, and an engine's last lines, printed just before, can miss the cell.
        "%%px\n"
        "def on_device(v):\n"
        "    w = v * 3\n"
        "    jax.debug.breakpoint()\n"
        "    return w\n"
        "stop = jax.jit(jax.shard_map(on_device, mesh=mesh, in_specs=P('x'), out_specs=P('x')))\n"
        "total = float(stop(x).sum())\n"
        "print('total', jax.process_index(), total)",
        "rc.shutdown(hub=False, block=True)\nrc.cluster.stop_cluster_sync()\n"
        "print('engines stopped')",
    ]


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(tmp_path / "cluster_browser.ipynb", _cells())


def test_one_widget_for_the_job_selects_a_process_prints_and_continues_all(lab_page, notebook):
    page = lab_page.page
    lab_page.open_notebook(notebook)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

    widget = page.locator(".jaxdbg-debugger[data-status='waiting']")
    widget.wait_for(timeout=240_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.jaxdbg-dbg-device-select option').length === 8",
        timeout=60_000,
    )
    assert page.locator(".jaxdbg-debugger[data-status='waiting']").count() == 1, "one widget"
    options = widget.locator(".jaxdbg-dbg-device-select option").all_inner_texts()
    for n, label in enumerate(options):
        assert label.startswith(f"shard {n} · process {n // 2}, CPU "), options

    widget.locator(".jaxdbg-dbg-device-select").select_option("5")
    page.wait_for_function(
        "label => document.querySelector('.jaxdbg-debugger .jaxdbg-dbg-details')"
        "?.textContent.includes(label)",
        arg=options[5].split(" · ", 1)[1],  # the header names the device as its label does
        timeout=30_000,
    )
    command_line = widget.locator(".jaxdbg-dbg-command-line")
    command_line.fill("p v.tolist()")
    command_line.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jaxdbg-dbg-output')]"
        ".some(o => o.textContent.includes('[21.0]'))",
        timeout=30_000,
    )
    lab_page.screenshot("cluster-debugger-process-2")
    _compare_across_processes(page, widget)
    lab_page.screenshot("cluster-compare-pictures")

    widget.locator(".jaxdbg-dbg-button[data-command='c']").click()
    for process in range(4):  # 3 x the sum of every process's (10 p, 10 p + 1)
        lab_page.wait_for_output(f"total {process} 372.0", timeout=120_000)
    lab_page.wait_for_output("engines stopped", timeout=120_000)
    assert page.locator(".jaxdbg-debugger[data-status='waiting']").count() == 0
    assert lab_page.console_errors == []


def _compare_across_processes(page, widget):
    """``compare w`` over the 8 hits of 4 processes: one picture per hit, each drawn by its own
    process, on one scale from process 0's 0 to process 3's 93."""
    assert compare_pictures(page, widget, "w", 8) == "one scale: min 0 … max 93"
    labels = widget.locator(".jaxdbg-dbg-compare-tile-label").all_inner_texts()
    for n, label in enumerate(labels):  # JAX numbers process p's CPU devices from 2048 p
        assert label == f"process {n // 2}, CPU {2048 * (n // 2) + n % 2} (x={n})", labels

"""The notebook feature in an in-process IPython shell: install swaps, undo restores exactly."""

import jax
import numpy as np
import pytest
from IPython.testing import globalipapp
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets.notebook import sharding_display
from jaxdbg_widgets.sharding.diagrams import mesh_layout, named_sharding_layout


@pytest.fixture
def ip():
    """The test shell with HTML output on, as in a notebook (a terminal shell turns it off)."""
    globalipapp.start_ipython()
    shell = globalipapp.get_ipython()
    html = shell.display_formatter.formatters["text/html"]
    enabled, html.enabled = html.enabled, True
    yield shell
    html.enabled = enabled


@pytest.fixture
def mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def test_install_and_undo_restore_everything(ip, mesh):
    before = (jax.debug.visualize_sharding, jax.debug.visualize_array_sharding)
    html = ip.display_formatter.formatters["text/html"]
    printers_before = dict(html.type_printers)
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    assert "text/html" not in ip.display_formatter.format(sharding)[0]

    undo = sharding_display.install(ip)
    assert jax.debug.visualize_sharding.__module__ == "jaxdbg_widgets.sharding.api"
    shown = ip.display_formatter.format(sharding)[0]["text/html"]
    assert "NamedSharding" in shown and "splits (2, 4)" in shown and "CPU 6" in shown
    assert "Mesh · splits (2, 4)" in ip.display_formatter.format(mesh)[0]["text/html"]

    undo()
    assert (jax.debug.visualize_sharding, jax.debug.visualize_array_sharding) == before
    assert dict(html.type_printers) == printers_before


def test_undo_keeps_a_printer_registered_before(ip, mesh):
    html = ip.display_formatter.formatters["text/html"]

    def theirs(mesh):
        return "<i>theirs</i>"

    html.for_type(Mesh, theirs)
    try:
        undo = sharding_display.install(ip)
        undo()
        assert html.type_printers[Mesh] is theirs
    finally:
        html.type_printers.pop(Mesh, None)


def test_diagram_shapes(mesh):
    assert named_sharding_layout(NamedSharding(mesh, PartitionSpec(("x", "y")))).shape == (8,)
    assert named_sharding_layout(NamedSharding(mesh, PartitionSpec(None, "y"))).shape == (1, 4)
    assert named_sharding_layout(NamedSharding(mesh, PartitionSpec())).shape == ()
    cube = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("a", "b", "c"))
    layout = mesh_layout(cube)
    assert layout.kind == "Mesh" and len(layout.facets()) == 2

"""Mesh axis types and unreduced/reduced specs in the layout and in every sharding view.

A JAX without ``AxisType`` or ``PartitionSpec.unreduced`` is stood in for by plain objects that
lack those attributes, so the old-JAX path runs on any installed JAX.
"""

import contextlib
import io
import json

import jax
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax.sharding import PartitionSpec as P

import jaxdbg_widgets as jdw
from jaxdbg_widgets.sharding.layout import sharding_layout
from jaxdbg_widgets.sharding.text import header_text
from jaxdbg_widgets.sharding.view import summary_parts

AxisType = jax.sharding.AxisType
HAS_UNREDUCED = hasattr(PartitionSpec(), "unreduced")
needs_unreduced = pytest.mark.skipif(
    not HAS_UNREDUCED, reason="this JAX's PartitionSpec has no unreduced/reduced axes"
)


@pytest.fixture(autouse=True)
def shardy():
    """Specs with unreduced or reduced axes need the Shardy partitioner, off before JAX 0.8."""
    flag = "jax_use_shardy_partitioner"
    before = getattr(jax.config, flag, None)
    if before is False:
        jax.config.update(flag, True)
    yield
    if before is False:
        jax.config.update(flag, False)


def _mesh(*types):
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=types)


def test_axis_types_reach_the_layout_and_the_header():
    layout = sharding_layout((8, 8), NamedSharding(_mesh(AxisType.Explicit, AxisType.Auto), P("x")))
    assert layout.axis_types == ("Explicit", "Auto")
    assert summary_parts(layout)[1] == "mesh x=2 y=4 (Explicit, Auto)"


def test_manual_axes_are_drawn_and_never_called_copies():
    """JAX maps no indices over a mesh with Manual axes; the layout is drawn all the same, and
    devices along a Manual axis that splits nothing hold blocks of their own."""
    mesh = _mesh(AxisType.Manual, AxisType.Explicit)
    layout = sharding_layout((8, 8), NamedSharding(mesh, P()))
    assert len(layout.cells) == 1 and layout.cells[0].replicas == 8
    assert not layout.is_fully_replicated and layout.own_block_axes() == ("x",)
    parts = summary_parts(layout)
    assert "mesh x=2 y=4 (Manual, Explicit)" in parts
    assert "4 copies per shard (over y)" in parts
    assert "manual over x: each device's block its own, not copies" in parts
    split = sharding_layout((8, 8), NamedSharding(mesh, P("x")))
    assert [c.device_ids for c in split.cells] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert split.own_block_axes() == ()


def test_axis_types_follow_what_the_mesh_says():
    """``Mesh(devices, names)`` takes JAX's default axis types, whatever they are."""
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    layout = sharding_layout((8, 8), NamedSharding(mesh, P("x")))
    assert layout.axis_types == tuple(t.name for t in mesh.axis_types)


class _OldSpec(tuple):
    """A spec as JAX before 0.7 had it: a tuple of entries, no unreduced or reduced axes."""


class _OldMesh:
    """A mesh without ``axis_types``, as JAX had before axis types."""

    def __init__(self, mesh):
        self.shape = mesh.shape


class _OldSharding:
    """A sharding whose mesh and spec lack the newer attributes, over real devices."""

    def __init__(self, sharding):
        self._real = sharding
        self.mesh = _OldMesh(sharding.mesh)
        self.spec = _OldSpec(sharding.spec)

    def devices_indices_map(self, shape):
        return self._real.devices_indices_map(shape)


def test_a_jax_without_axis_types_or_unreduced_gives_empty_facts():
    old = _OldSharding(NamedSharding(_mesh(AxisType.Auto, AxisType.Auto), P("x", None)))
    layout = sharding_layout((8, 8), old)
    assert (layout.axis_types, layout.unreduced, layout.reduced) == ((), (), ())
    assert summary_parts(layout)[1:3] == ["mesh x=2 y=4", "P('x', None)"]
    assert layout.spec_text() == "P('x', None)"


@needs_unreduced
def test_unreduced_axes_are_partial_results_never_copies():
    spec = P("x", None, unreduced={"y"})
    layout = sharding_layout(
        (8, 8), NamedSharding(_mesh(AxisType.Explicit, AxisType.Explicit), spec)
    )
    assert layout.unreduced == ("y",) and layout.unreduced_kind == "sum"
    assert [cell.device_ids for cell in layout.cells] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert layout.spec_text() == "P('x', None, unreduced={'y'})"
    assert layout.replicated_axes() == ()
    parts = summary_parts(layout)
    assert "unreduced over y: partial results of a sum" in parts
    assert not any("copies" in part or "replicated" in part for part in parts)


@needs_unreduced
def test_unreduced_over_every_axis_is_not_fully_replicated():
    spec = P(None, unreduced={"x", "y"})
    layout = sharding_layout((8,), NamedSharding(_mesh(AxisType.Explicit, AxisType.Explicit), spec))
    assert not layout.is_fully_replicated
    assert summary_parts(layout)[-1] == "unreduced over x, y: partial results of a sum"


@needs_unreduced
def test_unreduced_and_copies_on_other_axes():
    mesh = jax.make_mesh((2, 2, 2), ("a", "b", "c"), axis_types=(AxisType.Explicit,) * 3)
    layout = sharding_layout((8,), NamedSharding(mesh, P("a", unreduced={"b"})))
    parts = summary_parts(layout)
    assert "2 copies per shard (over c)" in parts
    assert "unreduced over b: partial results of a sum" in parts


@needs_unreduced
def test_reduced_axes_are_copies_and_say_so():
    spec = P("x", reduced={"y"})
    layout = sharding_layout((8,), NamedSharding(_mesh(AxisType.Explicit, AxisType.Explicit), spec))
    assert layout.reduced == ("y",) and layout.unreduced == ()
    assert layout.spec_text() == "P('x', reduced={'y'})"
    parts = summary_parts(layout)
    assert "4 copies per shard (over y)" in parts
    assert "reduced over y: copies, gradient left unreduced" in parts


@needs_unreduced
def test_every_view_shows_the_semantics():
    mesh = _mesh(AxisType.Auto, AxisType.Explicit)
    sharding = NamedSharding(mesh, P("x", None, unreduced={"y"}))
    expected = "mesh x=2 y=4 (Auto, Explicit)"
    html = jdw.sharding_html((8, 8), sharding)
    assert expected in html and "unreduced={&#x27;y&#x27;}" in html
    assert "unreduced over y: partial results of a sum" in html
    widget = jdw.ShardingWidget((8, 8), sharding)
    assert expected in widget.view["summary"]
    assert expected in json.dumps(widget.view)
    text = jdw.sharding_text((8, 8), sharding, header=True, use_color=False)
    first, rest = text.split("\n", 1)
    assert first == header_text(widget.layout)
    assert first.startswith("NamedSharding · shape (8, 8) · " + expected)
    assert rest == jdw.sharding_text((8, 8), sharding, use_color=False)


def test_the_text_diagram_stays_what_jax_draws():
    """The axis types go in the header only: without ``header`` the text is JAX's diagram,
    character for character, and so is the widget's ``text/plain``."""
    sharding = NamedSharding(_mesh(AxisType.Explicit, AxisType.Auto), P("x", "y"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        jax.debug.visualize_sharding((8, 8), sharding, use_color=False)
    text = jdw.sharding_text((8, 8), sharding, use_color=False)
    assert text.rstrip("\n") == out.getvalue().rstrip("\n")
    assert jdw.ShardingWidget((8, 8), sharding).to_text() == text


def test_header_must_be_a_bool():
    sharding = NamedSharding(_mesh(AxisType.Auto, AxisType.Auto), P("x"))
    with pytest.raises(TypeError, match="header must be True or False"):
        jdw.sharding_text((8,), sharding, header="yes")

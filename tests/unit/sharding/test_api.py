import contextlib
import io
import math
import re
import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import jaxdbg_widgets as jdw


@pytest.fixture
def mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def test_terminal_prints_text_for_any_rank(mesh, capsys):
    jdw.visualize_sharding(
        (4, 8, 8), NamedSharding(mesh, PartitionSpec("x", None, "y")), use_color=False
    )
    out = capsys.readouterr().out
    assert "[0:2, :, :]" in out and "CPU 7" in out


def test_visualize_array_sharding_eager(mesh, capsys):
    x = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x", "y")))
    jdw.visualize_array_sharding(x, use_color=False)
    out = capsys.readouterr().out
    assert all(f"CPU {i}" in out for i in range(8))


def test_inside_jit_fires_at_compile_time_only(mesh):
    seen = []

    @jax.jit
    def f(v):
        jdw.inspect_array_sharding(v, callback=seen.append)
        return v * 2

    x = jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x")))
    f(x)
    f(x)
    assert len(seen) == 1
    assert seen[0].spec == PartitionSpec("x")


def test_visualize_inside_jit_shows_the_compiled_sharding(mesh, capsys):
    @jax.jit
    def f(v):
        y = v @ v.T
        jdw.visualize_array_sharding(y, use_color=False)
        return y

    f(jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, PartitionSpec("x"))))
    out = capsys.readouterr().out
    assert "CPU" in out and "┌" in out


def test_options_checked_before_tracing(mesh):
    x = jax.device_put(jnp.ones((8,)), NamedSharding(mesh, PartitionSpec("y")))
    with pytest.raises(ValueError, match="scale"):
        jdw.visualize_array_sharding(x, scale=0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        jdw.visualize_array_sharding(x, colour=True)
    with pytest.raises(TypeError, match="callable"):
        jdw.inspect_array_sharding(x, callback=None)


def test_text_and_html_from_the_public_surface(mesh):
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    assert jdw.sharding_layout((8, 8), sharding).grid == (2, 4)
    assert "CPU 5" in jdw.sharding_text((8, 8), sharding, use_color=False)
    assert "CPU 5" in jdw.sharding_html((8, 8), sharding)


def jax_text(shape, sharding):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        jax.debug.visualize_sharding(shape, sharding, use_color=False)
    return out.getvalue()


def test_typed_prng_keys_draw_like_plain_jax(mesh, capsys):
    keys = jax.device_put(
        jax.random.split(jax.random.key(0), 8), NamedSharding(mesh, PartitionSpec(("x", "y")))
    )
    theirs = jax_text(keys.shape, keys.sharding)
    text = jdw.sharding_text(keys.shape, keys.sharding, dtype=keys.dtype, use_color=False)
    assert text == theirs
    html = jdw.sharding_html(keys.shape, keys.sharding, dtype=keys.dtype)
    assert "key&lt;fry&gt;" in html and "8 bytes" in html
    widget = jdw.ShardingWidget.from_array(keys)
    assert "key<fry>" in widget.view["summary"][0]
    jdw.visualize_array_sharding(keys, use_color=False)
    assert capsys.readouterr().out.strip() == theirs.strip()

    @jax.jit
    def f(k):
        jdw.visualize_array_sharding(k, use_color=False)
        return k

    f(keys)
    assert capsys.readouterr().out.strip() == theirs.strip()


@pytest.mark.parametrize(
    "options", [{"scale": 1e6}, {"scale": math.inf}, {"scale": math.nan}, {"max_width": 10**9}]
)
def test_absurd_sizes_are_rejected_at_once(mesh, options):
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"scale|max_width"):
        jdw.sharding_text((8, 8), sharding, **options)
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize(
    ("color_map", "error"),
    [("no-such-map", ValueError), (42, TypeError), (lambda _: "not a colour", ValueError)],
)
def test_terminal_rejects_the_colour_maps_html_rejects(mesh, color_map, error, capsys):
    sharding = NamedSharding(mesh, PartitionSpec("x", "y"))
    with pytest.raises(error) as from_html:
        jdw.sharding_html((8, 8), sharding, color_map=color_map)
    with pytest.raises(error) as from_terminal:  # capsys: a terminal without colour
        jdw.visualize_sharding((8, 8), sharding, color_map=color_map)
    assert str(from_terminal.value) == str(from_html.value)
    assert capsys.readouterr().out == ""


def _printed(visualize, shape, sharding):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        visualize(shape, sharding)
    return out.getvalue()


@pytest.mark.parametrize("force_color", [False, True])
@pytest.mark.parametrize(
    ("shape", "spec"),
    [
        ((8, 8), PartitionSpec("x", "y")),
        ((8,), PartitionSpec(("x", "y"))),
        ((8, 4), PartitionSpec()),
    ],
)
def test_terminal_output_ends_as_jax_does(mesh, monkeypatch, force_color, shape, spec):
    if force_color:
        monkeypatch.setenv("FORCE_COLOR", "1")
    else:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    sharding = NamedSharding(mesh, spec)
    theirs = _printed(jax.debug.visualize_sharding, shape, sharding)
    ours = _printed(jdw.visualize_sharding, shape, sharding)
    if force_color:  # the colours differ on purpose (JAX repeats some); the characters do not
        assert "\x1b[" in theirs and "\x1b[" in ours
        theirs, ours = (re.sub(r"\x1b\[[0-9;]*m", "", text) for text in (theirs, ours))
    assert ours == theirs


class _BareDevice:
    """A device as a custom ``Sharding`` or a test double may give it: ``id`` and ``platform``."""

    def __init__(self, id):
        self.id, self.platform = id, "cpu"


class _BareBlocks:
    """Four row blocks over four bare devices, with what JAX's own visualizer reads."""

    def __init__(self):
        self.devices = [_BareDevice(i) for i in range(4)]
        self.device_set = set(self.devices)

    def devices_indices_map(self, shape):
        rows = shape[0] // 4
        return {d: (slice(d.id * rows, (d.id + 1) * rows), slice(None)) for d in self.devices}


def test_devices_with_only_id_and_platform_draw_as_in_jax(capsys):
    sharding = _BareBlocks()
    theirs = jax_text((8, 8), sharding)
    assert jdw.sharding_text((8, 8), sharding, use_color=False) == theirs
    jdw.visualize_sharding((8, 8), sharding, use_color=False)
    assert capsys.readouterr().out == theirs
    assert "process 0" in jdw.sharding_html((8, 8), sharding)
    widget = jdw.ShardingWidget((8, 8), sharding)
    assert widget.view["cells"]["label"] == ["CPU 0", "CPU 1", "CPU 2", "CPU 3"]
    layout = jdw.sharding_layout((8, 8), sharding)
    assert {d.process_index for d in layout.devices} == {0}

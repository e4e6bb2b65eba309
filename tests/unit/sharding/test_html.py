import re
from html.parser import HTMLParser

import jax
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxdbg_widgets import sharding_html
from jaxdbg_widgets.sharding.stand_in import GridSharding

VOID = {"br", "img", "input", "meta", "link", "hr", "col"}


class TagBalance(HTMLParser):
    """Checks that every opened element is closed in order and collects text and attributes."""

    def __init__(self):
        super().__init__()
        self.stack, self.titles, self.text, self.tags = [], [], [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.titles.extend(v for k, v in attrs if k == "title")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag

    def handle_data(self, data):
        self.text.append(data)


def parsed(html):
    parser = TagBalance()
    parser.feed(html)
    parser.close()
    assert parser.stack == []
    return parser


def mesh_2x4(names=("x", "y")):
    return Mesh(np.array(jax.devices()).reshape(2, 4), names)


def test_byte_identical_for_equal_inputs():
    first = sharding_html((16, 16), NamedSharding(mesh_2x4(), PartitionSpec("x", "y")))
    second = sharding_html((16, 16), NamedSharding(mesh_2x4(), PartitionSpec("x", "y")))
    assert first == second
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", first)
    assert "<script" not in first and " id=" not in first


def test_grid_readable_without_javascript():
    html = sharding_html(
        (16, 16), NamedSharding(mesh_2x4(), PartitionSpec(None, "x")), dtype="float32"
    )
    page = parsed(html)
    assert {"table", "td", "style"} <= page.tags
    text = "".join(page.text)
    assert "CPU 0,1,2,3" in text and "CPU 4,5,6,7" in text
    assert "P(None, 'x')" in text and "mesh x=2 y=4" in text and "dim 1: x" in text
    assert "index [0:16, 8:16]\nshard shape (16, 8)\n512 bytes" in page.titles[1]
    assert "background:#" in html


def test_every_string_is_escaped():
    names = ('<img src=x onerror="alert(1)">', "a&b")
    html = sharding_html((8, 8), NamedSharding(mesh_2x4(names), PartitionSpec(*names)))
    assert "<img" not in html and 'onerror="' not in html
    page = parsed(html)
    assert any(names[0] in t for t in page.text)
    assert "&amp;" in html


def test_cells_sized_by_shard_extent():
    html = sharding_html((20, 50), GridSharding((2, 4), platform="cpu"))
    widths = [int(w) for w in re.findall(r"width:(\d+)ch;min", html)]
    heights = re.findall(r'<td style="[^"]*height:([\d.]+)em', html)
    # JAX's rule: 10 lines tall, int(10 * 50/20) * 2.5 = 62.5 characters wide, split by extent
    assert widths == [16, 16, 16, 13]  # int(62.5 * 13/50) and int(62.5 * 11/50)
    assert heights == ["6.25", "6.25"]  # 5 lines of 1.25em each


def test_narrow_cells_widen_to_fit_their_label():
    html = sharding_html((20, 10), GridSharding((2, 4), platform="cpu"), min_width=2)
    widths = [int(w) for w in re.findall(r"width:(\d+)ch;min", html)]
    assert widths == [len("CPU 3") + 2] * 4


def test_colour_off_uses_theme_colours():
    html = sharding_html((8,), NamedSharding(mesh_2x4(), PartitionSpec("y")), use_color=False)
    assert "background:#" not in html
    assert "var(--jp-border-color1" in html


@pytest.mark.parametrize("shape", [(), (8,), (8, 8), (2, 4, 8), (2, 4, 2, 8)])
def test_any_rank_renders(shape):
    spec = PartitionSpec(*(["x", "y"] + [None] * len(shape))[: len(shape)])
    html = sharding_html(shape, NamedSharding(mesh_2x4(), spec))
    page = parsed(html)
    cells = sum(1 for t in page.titles)
    assert cells == len(
        {str(v) for v in NamedSharding(mesh_2x4(), spec).devices_indices_map(shape).values()}
    )


def test_legend_and_processes_for_many_devices():
    html = sharding_html((128, 256), GridSharding((64, 64), per_process=1024, platform="tpu"))
    assert html.count("<td") == 4096
    assert "one colour per shard (4096 colours)" in html
    assert "process 3: 3072-4095" in html
    assert "TPU 4095 p3" in html


@pytest.mark.parametrize(
    ("shape", "sharding"),
    [
        ((8, 12, 6), GridSharding((2, 3, 2), replicas=2, per_process=3, platform="a<b")),
        ((9, 7), GridSharding((4, 3), per_process=5)),
        ((8, 8), GridSharding((2, 2), replicas=64, per_process=128)),
    ],
)
def test_titles_are_the_tooltips_the_widget_puts_together(shape, sharding):
    """The HTML's ``title`` of each cell, in grid order, is what the widget reads from its tips
    table: replicas, several processes, uneven shards and a platform that needs escaping."""
    from jaxdbg_widgets.sharding.options import RenderOptions
    from jaxdbg_widgets.sharding.view import layout_and_view, tooltip_text

    _, view = layout_and_view(shape, sharding, dtype="float32", options=RenderOptions())
    cells = view["cells"]
    expected = [
        tooltip_text(view["tips"][cells["tip"][i]], cells["devices"][i], cells["index"][i])
        for facet in view["facets"]
        for _, _, i in facet["cells"]
    ]
    parser = TagBalance()
    parser.feed(sharding_html(shape, sharding, dtype="float32"))
    assert parser.titles == expected
    assert len(set(map(tuple, view["tips"]))) == len(view["tips"]) > 1


def test_process_boundaries_are_heavy_borders():
    """A 2x4 grid of four processes in 2x2 blocks: a border right of column 1 and below row 0."""
    from jaxdbg_widgets.sharding.options import RenderOptions
    from jaxdbg_widgets.sharding.view import layout_and_view

    sharding = GridSharding((2, 4), per_process=2, platform="cpu")
    _, view = layout_and_view((8, 8), sharding, options=RenderOptions())
    assert view["process_edges"] == [[0, 2], [1, 3], [2, 2], [3, 2], [5, 1]]
    styles = re.findall(r'<td style="([^"]*)"', sharding_html((8, 8), sharding))
    right = [i for i, style in enumerate(styles) if "border-right:3px" in style]
    below = [i for i, style in enumerate(styles) if "border-bottom:3px" in style]
    assert (right, below) == ([1, 5], [0, 1, 2, 3])
    one = sharding_html((8, 8), GridSharding((2, 4), platform="cpu"))
    assert "border-right:3px" not in one and "border-bottom:3px" not in one


def test_replicated_shards_across_processes_are_bounded_by_their_process_set():
    from jaxdbg_widgets.sharding.options import RenderOptions
    from jaxdbg_widgets.sharding.view import layout_and_view

    sharding = GridSharding((2, 2), replicas=2, per_process=3, platform="cpu")
    layout, view = layout_and_view((8, 8), sharding, options=RenderOptions())
    held = [cell.process_indices for cell in layout.cells]
    assert held == [(0,), (0, 1), (1,), (2,)]
    assert view["process_edges"] == [[0, 3], [1, 2], [2, 1]]

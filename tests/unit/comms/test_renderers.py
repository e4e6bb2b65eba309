"""The text and static HTML renderers of a communication map, and the view model under them."""

import json

from jaxdbg_widgets.comms.api import communication_map_from_text
from jaxdbg_widgets.comms.view import collective_rows, comms_view

from .test_hlo import MODULE


def make_map():
    return communication_map_from_text(MODULE, axis_names=("x", "y"), mesh_shape=(2, 4))


def test_view_rows_expand_back_to_the_model():
    comms = make_map()
    view = comms_view(comms)
    rows = collective_rows(view)
    assert [r["name"] for r in rows] == [c.name for c in comms.collectives]
    assert [r["sent"] for r in rows] == [c.sent for c in comms.collectives]
    ag = next(r for r in rows if r["name"] == "ag")
    assert (ag["axes"], ag["executions"], ag["kind"]) == ("'y'", 12, "all-gather")
    assert view["lines"][ag["line"]]["line"] == 41
    assert view["head"].endswith(
        f"· {len(rows)} collectives · 26 HLO instructions"
    )  # counted by hand
    assert json.loads(json.dumps(view)) == view


def test_heatmap_levels_follow_bytes_sent():
    view = comms_view(make_map())
    heat = view["heat"]
    (top,) = {
        level for _, sent, level in heat["devices"] if sent == max(s for _, s, _ in heat["devices"])
    }
    assert top == len(heat["palette"]) - 1
    assert heat["title"] == "mesh x=2 y=4" and (heat["rows"], heat["cols"]) == (2, 4)


def test_html_is_deterministic_escaped_and_says_what_is_unread():
    comms = make_map()
    html = comms.to_html()
    assert html == make_map().to_html()
    assert "unread: 1 instruction(s) not counted" in html
    assert "line 41 of model.py" in html
    tagged = MODULE.replace("jit(step)/reduce_scatter", "jit(step)/<b>x</b>")
    tagged_html = communication_map_from_text(tagged).to_html()
    assert "op jit(step)/&lt;b&gt;x&lt;/b&gt;" in tagged_html and "<b>x</b>" not in tagged_html
    assert "max-width:900px" in html and "var(--jp-ui-font-color1" in html


def test_text_lists_lines_axes_and_unread():
    text = make_map().to_text()
    assert "line 41 of model.py" in text
    assert "per device per step by axes:" in text
    assert "unread: 1 instruction(s) not counted" in text
    assert "unknown replica group form" in text


def test_a_large_mesh_heatmap_is_one_image_of_one_pixel_per_device():
    import base64
    import io
    import re

    import numpy as np
    from PIL import Image

    first_row = "{{" + ",".join(map(str, range(16))) + "}}"
    text = "\n".join(
        [
            "HloModule wide, num_partitions=256",
            "ENTRY %main (p: f32[64]) -> f32[64] {",
            "  %p = f32[64]{0} parameter(0)",
            "  %a = f32[64]{0} all-reduce(%p), replica_groups=[16,16]<=[256], to_apply=%add",
            f"  %b = f32[64]{{0}} all-reduce(%a), replica_groups={first_row}, to_apply=%add",
            "  ROOT %r = f32[64]{0} copy(%b)",
            "}",
        ]
    )
    comms = communication_map_from_text(text, axis_names=("data", "model"), mesh_shape=(16, 16))
    heat = comms_view(comms)["heat"]
    assert len({level for _, _, level in heat["devices"]}) == 2  # row 0 sends twice as much
    html = comms.to_html()
    assert 'title="device ' not in html  # no cell per device
    encoded = re.search(r'src="data:image/png;base64,([^"]+)" width="160" height="160"', html)
    assert encoded is not None  # 16 devices of 10 px across
    pixels = np.asarray(Image.open(io.BytesIO(base64.b64decode(encoded.group(1)))))
    assert pixels.shape == (16, 16, 4)
    for row, col, position in heat["cells"]:
        level = heat["devices"][position][2]
        red, green, blue = (int(v) for v in pixels[row, col, :3])
        assert f"#{red:02X}{green:02X}{blue:02X}" == heat["palette"][level]
    assert "mesh data=16 model=16 · model →" in html


def test_long_shardings_tables_show_the_first_rows_and_say_how_many():
    from jaxdbg_widgets.comms.html import ROW_LIMIT, html_from_view

    view = comms_view(make_map())
    view["inputs"] = [[f"args[{i}]", "(4,)", "float32", "P()"] for i in range(ROW_LIMIT + 50)]
    html = html_from_view(view)
    assert f"args[{ROW_LIMIT - 1}]" in html and f"args[{ROW_LIMIT}]" not in html
    assert f"the first {ROW_LIMIT} of {ROW_LIMIT + 50 + len(view['outputs'])} inputs" in html

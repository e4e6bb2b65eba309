"""The reader on HLO text saved from the oldest and the newest JAX tested, whatever JAX runs here.

``hlo/fsdp_scan.py`` wrote both files (JAX 0.7.0: ``source_file``/``source_line`` metadata and
no stack-frame tables; JAX 0.10.2: the tables, ``mesh[...]`` groups elsewhere). Bytes are
checked by hand and lines against the generator's own marked lines.
"""

from pathlib import Path

import pytest

from jaxdbg_widgets.comms.api import communication_map_from_text

from .markers import line_of

HERE = Path(__file__).parent / "hlo"
GENERATOR = str(HERE / "fsdp_scan.py")
SAVED = sorted(HERE.glob("fsdp_scan_jax_*.txt"))


def test_both_versions_are_saved():
    assert [p.name for p in SAVED] == ["fsdp_scan_jax_0_10_2.txt", "fsdp_scan_jax_0_7_0.txt"]


@pytest.mark.parametrize("path", SAVED, ids=[p.stem for p in SAVED])
def test_weight_gather_and_gradient_reduce_in_the_loop(path):
    comms = communication_map_from_text(
        path.read_text(encoding="utf-8"), axis_names=("data", "fsdp"), mesh_shape=(2, 4)
    )
    assert comms.unread == () and comms.partitions == 8
    gather = next(c for c in comms.collectives if c.kind == "all-gather")
    reduce = next(c for c in comms.collectives if c.kind == "all-reduce")
    layer = 64 * 64 * 4  # one layer's whole weight, float32
    assert (gather.span.axes, gather.result_bytes, gather.sent) == (
        ("fsdp",),
        layer,
        3 * layer // 4,
    )
    assert (reduce.span.axes, reduce.result_bytes, reduce.sent) == (("data",), layer, layer)
    assert gather.executions == reduce.executions == 6
    gather_lines = {line_of(m, GENERATOR) for m in ("gather-weights", "scan-call")}
    assert gather.source.file == "fsdp_scan.py" and gather.source.line in gather_lines
    assert reduce.source.line == line_of("layer-matmul", GENERATOR)
    origin = (
        "stack frames" if "StackFrames" in path.read_text(encoding="utf-8") else "source metadata"
    )
    assert gather.source.origin == reduce.source.origin == origin

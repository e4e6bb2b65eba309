"""``peak_memory``: the peak agrees with XLA, its buffers and lines add up, and bad input gets
one line."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.memory.peak import AGREEMENT, GAPS, build_report
from jaxdbg_widgets.memory.units import parse_bytes
from tests.unit.memory.peak_corpus import CORPUS, S, marked_line, outer_sum, scan_loss


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_peak_agrees_with_xla_memory_analysis(name):
    f, args = CORPUS[name]
    compiled = jax.jit(f).lower(*args).compile()
    stats = compiled.memory_analysis()
    xla = (
        stats.argument_size_in_bytes
        + stats.output_size_in_bytes
        - stats.alias_size_in_bytes
        + stats.temp_size_in_bytes
    )
    report = jdw.peak_memory(f, *args).report
    assert report.xla_peak_bytes == xla
    assert report.laid_out  # each step counted where XLA's buffer assignment put its buffers
    assert abs(report.peak_bytes / xla - 1) <= AGREEMENT, (report.peak_bytes, xla)
    assert report.agrees


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_buffers_at_the_peak_add_up_largest_first(name):
    f, args = CORPUS[name]
    report = jdw.peak_memory(f, *args).report
    sizes = [b.nbytes for b in report.buffers]
    assert sizes == sorted(sizes, reverse=True)
    assert sum(sizes) + report.gap_bytes == report.peak_bytes
    gaps = [line for line in report.lines if line.source.function == GAPS]
    assert [line.nbytes for line in gaps] == ([report.gap_bytes] if report.gap_bytes else [])
    assert sum(line.nbytes for line in report.lines) == report.peak_bytes
    assert sum(line.share for line in report.lines) == pytest.approx(1.0)
    assert max(report.timeline) == report.peak_bytes == report.timeline[report.peak_step]


def test_the_largest_temporary_names_the_users_line():
    report = jdw.peak_memory(outer_sum, S((2048,), jnp.float32)).report
    made = [b for b in report.buffers if b.kind not in ("argument", "output")]
    assert made, report
    assert made[0].source.line == marked_line(outer_sum)
    assert made[0].source.file.endswith("peak_corpus.py")
    assert made[0].shape == (2048, 2048)


def test_a_grad_through_scan_keeps_residuals_from_the_scan_line():
    f, args = CORPUS["scan grad"]
    report = jdw.peak_memory(f, *args).report
    residuals = [b for b in report.buffers if b.kind == "residual"]
    stacked = [b for b in residuals if b.shape[:1] == (args[0].shape[0],)]
    assert stacked, [(b.kind, b.shape) for b in report.buffers]
    assert all(b.source.line == marked_line(scan_loss) for b in stacked)
    top_line = report.lines[0]
    assert top_line.source.line == marked_line(scan_loss)


def test_arguments_are_named_and_counted_once():
    f, args = CORPUS["mlp grad"]
    report = jdw.peak_memory(f, *args).report
    arguments = [b for b in report.buffers if b.kind == "argument"]
    assert sorted(b.source.function for b in arguments) == ["w", "x"]
    assert sum(b.nbytes for b in arguments) == sum(a.size * 4 for a in args)


def test_sharded_structs_report_every_device_with_per_device_bytes():
    f, args = CORPUS["sharded grad"]
    report = jdw.peak_memory(f, *args).report
    assert report.devices == tuple(range(8))
    weight = [b for b in report.buffers if b.kind == "argument" and len(b.shape) == 2]
    assert (512, 1024 // 8) in [b.shape for b in weight]


def test_nothing_is_allocated_for_a_program_larger_than_the_machine():
    huge = S((1 << 34,), jnp.float32)  # 64 GiB
    report = jdw.peak_memory(lambda x: x * 2, huge, device_memory="1 GiB").report
    assert report.peak_bytes >= huge.size * 4
    assert report.fit is not None and not report.fit.fits
    assert report.fit.margin == parse_bytes("1 GiB") - max(report.peak_bytes, report.xla_peak_bytes)


def test_device_memory_says_whether_it_fits_and_by_how_much():
    f, args = CORPUS["mlp grad"]
    peak = jdw.peak_memory(f, *args).report.peak_bytes
    tight = jdw.peak_memory(f, *args, device_memory=peak - 1).report
    roomy = jdw.peak_memory(f, *args, device_memory=peak + 10).report
    assert not tight.fit.fits and tight.fit.margin == -1
    assert roomy.fit.fits and roomy.fit.margin == 10
    assert "does NOT fit" in str(jdw.peak_memory(f, *args, device_memory=peak - 1))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("16 GiB", 16 * 2**30), ("1.5GB", 1_500_000_000), ("512 MiB", 512 * 2**20), (4096, 4096)],
)
def test_sizes_parse_in_binary_and_decimal_units(text, expected):
    assert parse_bytes(text) == expected


def test_variants_compare_peak_and_xla_flops_side_by_side():
    f, args = CORPUS["scan grad"]
    g, _ = CORPUS["checkpointed scan grad"]
    peaks = jdw.peak_memory({"plain": f, "remat": g}, *args)
    assert [r.name for r in peaks.reports] == ["plain", "remat"]
    for r, fun in zip(peaks.reports, (f, g), strict=True):
        cost = jax.jit(fun).lower(*args).compile().cost_analysis()
        cost = cost[0] if isinstance(cost, list) else cost
        assert r.flops == pytest.approx(cost["flops"])
    text = str(peaks)
    assert text.splitlines()[0].startswith("variant")
    assert peaks["remat"] is peaks.reports[1]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: jdw.peak_memory(3, S((2,), jnp.float32)), TypeError),
        (lambda: jdw.peak_memory({}, S((2,), jnp.float32)), ValueError),
        (lambda: jdw.peak_memory({"a": "no"}, S((2,), jnp.float32)), TypeError),
        (lambda: jdw.peak_memory(jnp.sin, S((2,), jnp.float32), device_memory="lots"), ValueError),
        (lambda: jdw.peak_memory(jnp.sin, S((2,), jnp.float32), device_memory=-3), ValueError),
    ],
)
def test_bad_input_gets_one_clear_line(call, error):
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message and message.strip()


def test_a_backend_without_memory_analysis_says_so_and_shows_no_zero():
    f, args = CORPUS["outer"]
    text = jax.jit(f).lower(*args).compile().as_text()
    report = build_report("outer", text, None)
    assert report.agreement is None and report.agrees is None
    from jaxdbg_widgets.memory.peak_text import report_text

    rendered = report_text(report)
    assert "not reported" in rendered
    assert "XLA gave no memory analysis" in rendered
    assert not re.search(r"XLA's memory analysis \(0 B", rendered)


def test_html_is_deterministic_and_escaped():
    f, args = CORPUS["mlp grad"]
    one = jdw.peak_memory({"<a>": f}, *args).to_html()
    two = jdw.peak_memory({"<a>": f}, *args).to_html()
    assert one == two
    assert "<a>" not in one and "&lt;a&gt;" in one
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", one)


def test_outside_a_notebook_the_output_is_the_static_html():
    peaks = jdw.peak_memory(outer_sum, S((256,), jnp.float32))
    bundle = peaks._repr_mimebundle_()
    assert bundle["text/html"] == peaks.to_html()
    assert bundle["text/plain"] == peaks.to_text()


def test_an_analysis_of_zeros_is_missing_not_a_figure():
    from jaxdbg_widgets.memory.peak_api import _xla_peak
    from jaxdbg_widgets.memory.program import FIELDS, ProgramMemory

    zeros = ProgramMemory(tuple((label, 0) for label, _ in FIELDS), (), (), ())
    nothing = ProgramMemory(tuple((label, None) for label, _ in FIELDS), (), (), ())
    some = ProgramMemory(tuple((label, 8) for label, _ in FIELDS), (), (), ())
    assert _xla_peak(zeros) is None and _xla_peak(nothing) is None
    assert _xla_peak(some) == 8 + 8 - 8 + 8  # arguments + outputs - aliased + temporaries


def test_each_line_carries_its_code_and_its_buffers_open_under_it_in_html():
    f, args = CORPUS["scan grad"]
    peaks = jdw.peak_memory(f, *args)
    top = peaks.report.lines[0]
    assert "jax.lax.scan(body, x, ws)" in top.code
    assert sum(peaks.report.buffers[i].nbytes for i in top.buffers) == top.nbytes
    html = peaks.to_html()
    assert html.count("<details>") == min(len(peaks.report.lines), 12)
    first = html[html.index("<details>") : html.index("</details>")]
    assert "jax.lax.scan(body, x, ws)" in first
    assert first.count("<tr>") == len(top.buffers) + 1  # its buffers, under a header row
    assert "agrees with XLA" in html


def test_the_text_shows_each_lines_code_under_it():
    f, args = CORPUS["scan grad"]
    text = str(jdw.peak_memory(f, *args))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "peak_corpus.py:" in line)
    assert "jax.lax.scan(body, x, ws)" in lines[at + 1]


def test_a_gap_to_xla_is_said_not_hidden():
    f, args = CORPUS["mlp grad"]
    text = jax.jit(f).lower(*args).compile().as_text()
    ours = build_report("mlp", text, None).peak_bytes
    report = build_report("mlp", text, ours * 2)
    assert report.agrees is False
    assert any("differs from XLA's" in note for note in report.notes)
    from jaxdbg_widgets.memory.peak_text import report_text

    assert "DIFFERS from XLA's memory analysis" in report_text(report)


# As JAX 0.7's XLA writes a large elementwise op on CPU: a call without metadata to a parallel
# computation whose root carries the user's line.
WRAPPED_CALL = """\
HloModule jit_step, is_scheduled=true

%parallel_sine (p: f32[64]) -> f32[64,64] {
  %p = f32[64]{0} parameter(0)
  %b = f32[64,64]{1,0} broadcast(%p), dimensions={0}
  ROOT %s = f32[64,64]{1,0} sine(%b), metadata={op_name="jit(step)/sin" source_file="/work/model.py" source_line=12}
}

ENTRY %main (x: f32[64]) -> f32[64,64] {
  %x = f32[64]{0} parameter(0), metadata={op_name="x"}
  %call = f32[64,64]{1,0} call(%x), to_apply=%parallel_sine
  %call.1 = f32[64,64]{1,0} call(%x), to_apply=%parallel_sine
  ROOT %c = f32[64,64]{1,0} add(%call, %call.1), metadata={op_name="jit(step)/add" source_file="/work/model.py" source_line=13}
}
"""


def test_a_call_without_metadata_is_named_by_the_line_of_what_it_calls():
    report = build_report("step", WRAPPED_CALL, None)
    [made] = [b for b in report.buffers if b.name.startswith("call")]
    assert (made.source.file, made.source.line) == ("/work/model.py", 12)
    assert made.source.origin == "source metadata"  # not its reader's line (13)

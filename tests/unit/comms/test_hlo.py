"""The HLO reader on saved text: every collective form, the source tables, loops, unread lines."""

import pytest

from jaxdbg_widgets.comms.api import communication_map_from_text
from jaxdbg_widgets.comms.hlo import read_hlo

TABLES = """
FileNames
1 "/home/u/model.py"

FunctionNames
1 "<module>"
2 "step"

FileLocations
1 {file_name_id=1 function_name_id=1 line=90 end_line=90 column=1 end_column=1}
2 {file_name_id=1 function_name_id=2 line=41 end_line=41 column=8 end_column=8}
3 {file_name_id=1 function_name_id=2 line=42 end_line=42 column=8 end_column=8}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}
3 {file_location_id=3 parent_frame_id=2}
"""

MODULE = (
    "HloModule jit_step, is_scheduled=true, num_partitions=8\n"
    + TABLES
    + """
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%x, %y)
}

%body (p: (s32[], f32[16,128])) -> (s32[], f32[16,128]) {
  %p = (s32[], f32[16,128]{1,0}) parameter(0)
  %gte = f32[16,32]{1,0} get-tuple-element(%p), index=1
  %ag = f32[16,128]{1,0} all-gather(%gte), channel_id=1, replica_groups=[2,4]<=[8], dimensions={1}, use_global_device_ids=true, metadata={op_name="jit(step)/while/body/dot_general" stack_frame_id=2}
  ROOT %t = (s32[], f32[16,128]{1,0}) tuple(%i, %ag)
}

%cond (p.1: (s32[], f32[16,128])) -> pred[] {
  %p.1 = (s32[], f32[16,128]{1,0}) parameter(0)
  ROOT %lt = pred[] constant(true)
}

%wrapped (w: f32[64]) -> f32[64] {
  %w = f32[64]{0} parameter(0)
  ROOT %a2a = f32[64]{0} all-to-all(%w), channel_id=9, replica_groups={{0,1,2,3,4,5,6,7}}, dimensions={0}, metadata={op_name="jit(step)/all_to_all" stack_frame_id=3}
}

ENTRY %main (a: f32[32,256], b: bf16[1024]) -> f32[256] {
  %a = f32[32,256]{1,0} parameter(0)
  %b = bf16[1024]{0} parameter(1)
  %ar = f32[32,256]{1,0} all-reduce(%a), channel_id=2, replica_groups={{0,1,2,3},{4,5,6,7}}, use_global_device_ids=true, to_apply=%add, metadata={op_name="jit(step)/dot_general" stack_frame_id=2}
  %ars = f32[32,256]{1,0} all-reduce-start(%a), channel_id=3, replica_groups=mesh['axis_0'=2,'axis_1'=4] {'axis_0'}, to_apply=%add, metadata={op_name="jit(step)/psum" stack_frame_id=3}
  %ard = f32[32,256]{1,0} all-reduce-done(%ars)
  %ags = (bf16[1024]{0}, bf16[8192]{0}) all-gather-start(%b), channel_id=4, replica_groups={}, dimensions={0}, metadata={op_name="jit(step)/gather" source_file="/home/u/old.py" source_line=7}
  %agd = bf16[8192]{0} all-gather-done(%ags)
  %rs = f32[4,256]{1,0} reduce-scatter(%a), channel_id=5, replica_groups=[1,8]<=[8], dimensions={0}, to_apply=%add, metadata={op_name="jit(step)/reduce_scatter"}
  %cps = (f32[32,256]{1,0}, f32[32,256]{1,0}, u32[], u32[]) collective-permute-start(%a), channel_id=6, source_target_pairs={{0,1},{1,0},{2,2}}, metadata={op_name="jit(step)/ppermute" stack_frame_id=3}
  %cpd = f32[32,256]{1,0} collective-permute-done(%cps)
  %bad = f32[32,256]{1,0} all-reduce(%a), channel_id=7, replica_groups=strange(0,1), to_apply=%add
  %as = ((f32[64]{0}), f32[64]{0}) async-start(%x64), calls=%wrapped
  %init = (s32[], f32[16,128]{1,0}) tuple(%zero, %z)
  %loop = (s32[], f32[16,128]{1,0}) while(%init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"12"}}
  ROOT %r = f32[256]{0} reduce(%ard), dimensions={0}, to_apply=%add
}
"""
)


@pytest.fixture(scope="module")
def module():
    return read_hlo(MODULE)


def by_name(module, name):
    (found,) = [c for c in module.collectives if c.name == name]
    return found


def test_header_counts_and_tables(module):
    assert (module.name, module.partitions) == ("jit_step", 8)
    assert module.has_frame_tables
    assert module.frames[2].line == 41 and module.frames[2].function == "step"
    assert module.frames[2].parent == 1 and module.frames[1].parent is None
    assert module.frames[3].file == "/home/u/model.py"


def test_every_kind_and_async_form_is_read_once(module):
    names = sorted(c.name for c in module.collectives)
    assert names == ["a2a", "ag", "ags", "ar", "ars", "cps", "rs"]
    assert by_name(module, "ars").kind == "all-reduce" and by_name(module, "ars").asynchronous
    assert by_name(module, "ags").result[0].text == "bf16[8192]"
    assert by_name(module, "cps").result[0].text == "f32[32,256]"
    assert by_name(module, "rs").operands[0].text == "f32[32,256]"


def test_groups_of_every_form(module):
    assert by_name(module, "ar").groups.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert by_name(module, "ars").groups.tolist() == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert by_name(module, "ags").groups.tolist() == [list(range(8))]
    assert by_name(module, "cps").groups.tolist() == [[0, 1], [1, 0], [2, 2]]


def test_metadata_loops_and_the_unread_instruction(module):
    ag = by_name(module, "ag")
    assert (ag.stack_frame_id, ag.op_name) == (2, "jit(step)/while/body/dot_general")
    assert [(loop.name, loop.trip_count) for loop in module.loops_around(ag.computation)] == [
        ("loop", 12)
    ]
    assert module.loops_around(by_name(module, "a2a").computation) == ()
    ags = by_name(module, "ags")
    assert (ags.source_file, ags.source_line) == ("/home/u/old.py", 7)
    (bad,) = module.unread
    assert bad.name == "bad" and "unknown replica group form" in bad.reason


def test_bytes_axes_and_lines_by_hand():
    comms = communication_map_from_text(MODULE, axis_names=("x", "y"), mesh_shape=(2, 4))
    got = {c.name: c for c in comms.collectives}
    size = 32 * 256 * 4
    assert (got["ar"].sent, got["ar"].span.axes) == (2 * 3 * size // 4, ("y",))
    assert (got["ars"].sent, got["ars"].span.axes) == (2 * 1 * size // 2, ("x",))
    assert (got["ags"].sent, got["ags"].span.axes) == (7 * 8192 * 2 // 8, ("x", "y"))
    assert got["rs"].sent == 7 * size // 8
    assert got["cps"].sent == size and got["cps"].span.axes == ("y",)
    assert got["a2a"].sent == 7 * 64 * 4 // 8
    ag = got["ag"]
    assert ag.sent == 3 * 16 * 128 * 4 // 4 and ag.executions == 12
    assert ag.sent_per_step == 12 * ag.sent
    assert (ag.source.file, ag.source.line, ag.source.function) == ("/home/u/model.py", 41, "step")
    assert ag.source.callers == (("/home/u/model.py", 90, "<module>"),)
    assert got["ags"].source.origin == "source metadata" and got["ags"].source.line == 7
    assert (
        got["rs"].source.origin == "op_name"
        and got["rs"].source.label == "op jit(step)/reduce_scatter"
    )
    # the permute: 0 -> 1 and 1 -> 0 move a buffer; 2 -> 2 moves nothing.
    assert comms.device_sent[0] >= size and comms.device_sent[2] < comms.device_sent[0]
    assert len(comms.unread) == 1


def test_summary_sentence_names_count_bytes_axis_loop_and_line():
    comms = communication_map_from_text(MODULE, axis_names=("x", "fsdp"), mesh_shape=(2, 4))
    sentence = next(s for s in comms.summary() if s.startswith("1 all-gather "))
    assert sentence == (
        "1 all-gather (72.0 KiB per device per step) on axis 'fsdp', in a loop of 12 "
        "iterations, from line 41 of model.py"
    )


def test_without_frame_tables_lines_fall_back_and_the_map_says_so():
    text = MODULE.replace(TABLES, "\n")
    comms = communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))
    ag = next(c for c in comms.collectives if c.name == "ag")
    assert ag.source.origin == "op_name" and ag.source.line is None
    assert any("no stack-frame tables" in note for note in comms.notes)


def test_older_text_with_operand_shapes_written_inline():
    line = (
        "  %ag = f32[16,128]{1,0} all-gather(f32[16,32]{1,0} %gte), replica_groups={{0,1,2,3}},"
        " dimensions={1}\n"
    )
    text = "HloModule old, num_partitions=4\n\nENTRY %main (gte: f32[16,32]) -> f32[16,128] {\n"
    module = read_hlo(text + line + "}\n")
    (ag,) = module.collectives
    assert ag.operands[0].text == "f32[16,32]" and ag.groups.shape == (1, 4)


def test_a_4096_device_program_from_saved_text():
    lines = [
        "HloModule big, num_partitions=4096",
        "",
        "ENTRY %main (p: f32[64,1024]) -> f32[64,1024] {",
    ]
    lines.append("  %p = f32[64,1024]{1,0} parameter(0)")
    forms = ["[64,64]<=[4096]", "[64,64]<=[64,64]T(1,0)", "[512,8]<=[8,64,8]T(1,0,2)"]
    for i in range(300):
        lines.append(
            f"  %ar.{i} = f32[64,1024]{{1,0}} all-reduce(%p), channel_id={i + 1}, "
            f"replica_groups={forms[i % 3]}, to_apply=%add"
        )
    lines.append("  ROOT %r = f32[64,1024]{1,0} copy(%p)")
    lines.append("}")
    comms = communication_map_from_text(
        "\n".join(lines), axis_names=("data", "fsdp", "model"), mesh_shape=(8, 64, 8)
    )
    assert comms.partitions == 4096 and len(comms.collectives) == 300 and not comms.unread
    spans = [comms.collectives[i].span for i in range(3)]
    # id = data*512 + fsdp*8 + model. Runs of 64: all of model, 8 of fsdp's 64 positions.
    # Stride 64 (transposed): 8 of fsdp's positions times all of data. Last form: model.
    assert spans[0].axes == ("fsdp", "model") and not spans[0].whole
    assert spans[1].axes == ("data", "fsdp") and not spans[1].whole
    assert spans[2].axes == ("model",) and spans[2].whole
    size = 64 * 1024 * 4
    assert comms.collectives[2].sent == round(2 * 7 * size / 8)
    assert len(comms.device_sent) == 4096
    html = comms.to_html()
    assert "4096 devices" in html


def test_a_frame_inside_this_package_is_never_the_users_line():
    import jaxdbg_widgets.comms.program as program

    inside = program.__file__
    text = MODULE.replace('1 "/home/u/model.py"', f'1 "{inside}"')
    comms = communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))
    ag = next(c for c in comms.collectives if c.name == "ag")
    assert ag.source.line is None and ag.source.label == "op jit(step)/while/body/dot_general"
    old = MODULE.replace("/home/u/old.py", inside)
    ags = next(c for c in communication_map_from_text(old).collectives if c.name == "ags")
    assert ags.source.origin == "op_name"


def test_calling_frames_inside_this_package_are_left_out():
    import jaxdbg_widgets.comms.program as program

    text = MODULE.replace(
        '1 "/home/u/model.py"\n', f'1 "/home/u/model.py"\n2 "{program.__file__}"\n'
    ).replace(
        "1 {file_name_id=1 function_name_id=1 line=90",
        "1 {file_name_id=2 function_name_id=1 line=90",
    )
    ag = next(c for c in communication_map_from_text(text).collectives if c.name == "ag")
    assert (ag.source.line, ag.source.callers) == (41, ())


def test_point_to_point_and_ragged_communication_is_counted_unread():
    lines = [
        "HloModule p2p, num_partitions=2",
        "",
        "ENTRY %main (p: f32[8], t: token[]) -> f32[8] {",
        "  %p = f32[8]{0} parameter(0)",
        "  %t = token[] after-all()",
        "  %s = (f32[8]{0}, u32[], token[]) send(%p, %t), channel_id=1",
        "  %r = (f32[8]{0}, u32[], token[]) recv(%t), channel_id=1",
        "  %rag = f32[8]{0} ragged-all-to-all(%p, %p, %p, %p, %p, %p), replica_groups={{0,1}}",
        "  ROOT %c = f32[8]{0} copy(%p)",
        "}",
    ]
    module = read_hlo("\n".join(lines))
    assert module.collectives == ()
    assert [(u.name, u.opcode) for u in module.unread] == [
        ("s", "send"),
        ("r", "recv"),
        ("rag", "ragged-all-to-all"),
    ]
    assert all(u.reason == "not a collective this reader sizes" for u in module.unread)

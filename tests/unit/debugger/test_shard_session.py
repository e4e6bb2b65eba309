"""The shard session model: gathering hits, the device selector, compare, continue one or all, quit."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.shard_gathering import Gathering
from jaxdbg_widgets.debugger.session.shard_selection import Selection
from jaxdbg_widgets.debugger.session.shards import ShardSession, expected_hits
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.pictures.row import row_pictures

from .conftest import CoreLikeFrame, jax_frames


def _hit(index: int, *, y: float | None = None, place: ShardPlace | None = None) -> Session:
    y = float(index) if y is None else y
    frames = jax_frames(x=np.full(4, index, np.float32), y=y, scale=2.0)
    place = place or ShardPlace((("x", index),), f"CPU {index}")
    return Session(frames, thread_id=100 + index, shard=place)


def _gathered(count: int = 8, **kwargs) -> ShardSession:
    shards = ShardSession(draw_values=row_pictures, expected=count, axis_sizes=(count,), **kwargs)
    for index in reversed(range(count)):  # arrival order is not mesh order
        shards.add(_hit(index))
    return shards


def test_the_shard_comes_as_data_not_parsed_from_its_label():
    """A label that reads like another place does not change where the hit is."""
    place = ShardPlace((("x", 1),), "CPU 9")
    shards = ShardSession(draw_values=row_pictures, expected=2)
    shards.add(Session(jax_frames(y=1.0), device="CPU 3 (x=3), vmap element 2", shard=place))
    assert shards.shard == place and shards.shard.element is None
    assert shards.run("dev CPU 9").output.startswith("CPU 9, x=1, shard 0")


def test_hits_are_kept_in_mesh_order_whatever_their_arrival():
    shards = _gathered()
    assert [s.device for s in shards.shards] == [f"CPU {i}" for i in range(8)]
    assert shards.arrived == 8 and shards.waiting == 8
    assert shards.shard.device == "CPU 0"  # the first in mesh order until the user picks


def test_shard_index_is_row_major_in_the_mesh():
    shards = ShardSession(draw_values=row_pictures, axis_sizes=(2, 4))
    shards.add(_hit(0, place=ShardPlace((("x", 1), ("y", 2)), "CPU 6")))
    assert shards.shard_index(shards.shard) == 6


def test_selecting_a_device_switches_locals_and_p():
    shards = _gathered()
    assert shards.run("dev 3").output.startswith("CPU 3, x=3, shard 3 (waiting)")
    assert shards.run("p y").output == "3.0"
    assert shards.run("p float(x.sum())").output == "12.0"
    shards.select_device("CPU 5")
    assert shards.run("y").output == "5.0"


def test_frames_switch_with_the_device_and_up_applies_to_the_selected_shard():
    shards = _gathered()
    shards.run("dev 2")
    shards.run("u")
    assert shards.session.selected == 1
    shards.run("dev 4")
    assert shards.session.selected == 0


def test_dev_lists_every_shard_and_marks_the_selected_one():
    shards = _gathered(4)
    shards.run("dev 1")
    lines = shards.run("dev").output.splitlines()
    assert lines[0] == "4 of 4 shards gathered, 4 waiting"
    assert lines[2].startswith(">   1  CPU 1, x=1, shard 1")


def test_compare_marks_the_divergent_shard():
    shards = ShardSession(draw_values=row_pictures, expected=8)
    for index in range(8):
        shards.add(_hit(index, y=float("nan") if index == 5 else 1.0))
    entry = shards.run("compare y * 2")
    rows = shards.compared[1]
    assert [r.index for r in rows if r.differs] == [5]
    assert entry.output.splitlines()[-1] == "shard 5 differs: nan, 7 others 2.0"
    assert "! shard 5: nan" in entry.output.splitlines()
    assert "  shards 0–4, 6–7: 2.0" in entry.output.splitlines()


def test_compare_agreeing_shards_and_errors():
    shards = _gathered(4)
    assert shards.run("cmp scale").output.endswith("all 4 shards agree: 2.0")
    rows = shards.compare("1 / (y - 2)")
    assert [r.error for r in rows] == [False, False, True, False]
    assert rows[2].value.startswith("*** ZeroDivisionError")
    assert not any(r.differs for r in rows), "four different answers: a tie, nothing marked"


def test_compare_follows_the_selected_frame_depth():
    shards = _gathered(2)
    shards.run("u")
    assert [r.value for r in shards.compare("x")] == ["1", "1"]


def test_continue_one_shard_then_the_rest():
    shards = _gathered(4)
    shards.run("dev 1")
    assert shards.run("c 1").output == "Continuing CPU 1 (x=1); 3 still waiting."
    assert shards.resume_of(1) is Resume.CONTINUE and shards.resume is None
    assert shards.shard.device == "CPU 2"  # selection moves on to the next waiting shard
    shards.run("dev 1")
    assert shards.run("p y").error  # a continued shard answers no more commands
    shards.run("c")
    assert shards.resume is Resume.CONTINUE
    assert [shards.resume_of(i) for i in range(4)] == [Resume.CONTINUE] * 4


def test_continuing_the_last_expected_shard_ends_the_session():
    shards = _gathered(2)
    shards.run("c 0")
    assert shards.run("c 1").output.endswith("every shard has continued.")
    assert shards.resume is Resume.CONTINUE


def test_quit_releases_every_shard_with_quit_and_later_arrivals_too():
    shards = ShardSession(draw_values=row_pictures, expected=4)
    for index in range(3):
        shards.add(_hit(index))
    shards.run("c 0")
    shards.run("q")
    late = shards.add(_hit(3))
    assert [shards.resume_of(i) for i in range(4)] == [
        Resume.CONTINUE,
        Resume.QUIT,
        Resume.QUIT,
        Resume.QUIT,
    ]
    assert shards.wait(late, timeout=0) is Resume.QUIT


def test_device_threads_wait_until_released():
    shards = ShardSession(draw_values=row_pictures, expected=8)
    answers: dict[int, Resume | None] = {}

    def device(index: int) -> None:
        shard = shards.add(_hit(index))
        answers[index] = shards.wait(shard, timeout=10)

    threads = [threading.Thread(target=device, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    assert shards.wait_for_hits(8, quiet=10)
    shards.run("c 3")
    threads[3].join(10)
    assert answers == {3: Resume.CONTINUE}
    shards.run("ca")
    for thread in threads:
        thread.join(10)
    assert answers == {i: (Resume.CONTINUE if i == 3 else Resume.CONTINUE_ALL) for i in range(8)}


def test_messages_from_the_front_end_drive_the_shard_session():
    shards = _gathered(4)
    apply_message(shards, {"type": "device", "index": 2})
    assert shards.shard.device == "CPU 2"
    apply_message(shards, {"type": "compare", "expression": "y"})
    assert shards.compared[0] == "y"
    apply_message(shards, {"type": "device", "index": 9})
    assert shards.transcript[-1].command == "dev 9"
    assert shards.transcript[-1].error
    apply_message(shards, {"type": "command", "line": "c 2"})
    assert shards.resume_of(2) is Resume.CONTINUE


def test_widget_navigation_stays_out_of_the_transcript_and_compare_shows_once():
    shards = _gathered(8)
    for index in [3, 4, 5, 4]:  # arrow presses in the device selector
        apply_message(shards, {"type": "device", "index": index})
    assert shards.shard.device == "CPU 4" and shards.transcript == []
    apply_message(shards, {"type": "compare", "expression": "y == 5"})
    (entry,) = shards.transcript
    assert (entry.command, entry.output) == (
        "compare y == 5",
        "shard 5 differs: True, 7 others False",
    )
    assert shards.history[-1] == "compare y == 5"
    apply_message(shards, {"type": "compare", "expression": "y +"})
    assert shards.transcript[-1].error and "SyntaxError" in shards.transcript[-1].output


def test_bad_commands_are_errors_not_crashes():
    shards = _gathered(2)
    assert shards.run("dev 7").error
    assert shards.run("dev GPU 0").error
    assert shards.run("compare").error
    assert shards.run("c 5").error
    assert shards.resume is None


def test_help_lists_the_shard_commands():
    output = _gathered(2).run("help").output
    assert "Shard commands:" in output and "compare expr" in output


def test_batched_shards_keep_b_and_compare_uses_the_selected_element():
    shards = ShardSession(draw_values=row_pictures)
    for index in range(2):
        frame = CoreLikeFrame(
            "/work/m.py", 3, "f", {"v": np.arange(3) + 10 * index}, batched=("v",)
        )
        shards.add(Session([frame], shard=ShardPlace((("x", index),)), batch_size=3))
    shards.run("b 2")
    assert [r.value for r in shards.compare("v")] == ["np.int64(2)", "np.int64(12)"]


def test_expected_hits():
    assert expected_hits((2, 4)) == 8
    assert expected_hits((8,), batch=3) == 24
    assert expected_hits(None) is None


def test_compare_skips_continued_shards():
    shards = _gathered(3)
    shards.run("c 1")
    rows = shards.compare("y")
    assert [(r.value, r.differs) for r in rows] == [
        ("0.0", False),
        ("(continued)", False),
        ("2.0", False),
    ]


def test_setting_resume_releases_every_shard():
    shards = _gathered(3)
    shards.resume = Resume.CONTINUE  # what the headless policy does to any session
    assert [shards.resume_of(i) for i in range(3)] == [Resume.CONTINUE] * 3


def test_compare_evaluates_in_each_shard_through_its_session(monkeypatch):
    seen = []
    evaluate = Session.evaluate

    def recording(self, expression, **where):
        seen.append((self.shard.label, where))
        return evaluate(self, expression, **where)

    monkeypatch.setattr(Session, "evaluate", recording)
    shards = _gathered(3)
    shards.run("u")
    assert [r.value for r in shards.compare("x")] == ["1"] * 3
    assert seen == [(f"CPU {i} (x={i})", {"depth": 1, "element": None}) for i in range(3)]


def test_the_gathering_and_the_selection_work_without_a_shard_session():
    gathering = Gathering(expected=2)
    selection = Selection(gathering)
    late = gathering.add(_hit(1), selection.on_arrival)
    gathering.add(_hit(0), selection.on_arrival)
    assert selection.current().shard.device == "CPU 0"
    assert selection.find("CPU 1") is late and gathering.waiting == 2
    gathering.finish(Resume.CONTINUE)
    assert gathering.wait(late.shard, timeout=0) is Resume.CONTINUE


def test_compare_never_marks_equal_values_and_reports_a_tie():
    shards = _gathered(8)
    entry = shards.run("compare y < 4")  # 4 True, 4 False: no most common value
    assert [r.differs for r in shards.compared[1]] == [False] * 8
    assert entry.output.splitlines()[-1] == "no most common value: 2 values tie, 4 shards each"


def test_compare_of_the_same_error_in_every_shard_agrees():
    shards = _gathered(8)
    entry = shards.run("compare undefined_name")
    assert [r.differs for r in shards.compared[1]] == [False] * 8
    assert entry.output.splitlines()[-1].startswith("all 8 shards agree: *** NameError")


def test_compare_marks_only_the_shards_outside_the_largest_group():
    shards = _gathered(5)
    rows = shards.compare("'a' if y < 3 else y")
    assert [r.differs for r in rows] == [False, False, False, True, True]
    rows = shards.compare("1 / 0 if y < 3 else y")  # the same error three times is the majority
    assert [(r.error, r.differs) for r in rows] == [(True, False)] * 3 + [(False, True)] * 2


def test_compare_of_all_different_values_marks_none():
    entry = _gathered(4).run("compare y")
    assert "!" not in entry.output
    assert entry.output.splitlines()[-1] == "no most common value: 4 values tie, 1 shard each"


def _mesh_16x16(bad: int = 216) -> ShardSession:
    shards = ShardSession(draw_values=row_pictures, expected=256, axis_sizes=(16, 16))
    for index in range(256):
        place = ShardPlace((("data", index // 16), ("model", index % 16)), f"CPU {index}")
        frames = jax_frames(y=np.full(4, np.nan if index == bad else 1.0, np.float32))
        shards.add(Session(frames, thread_id=index, shard=place))
    return shards


def test_compare_at_256_devices_names_the_bad_shard_and_groups_the_rest():
    shards = _mesh_16x16()
    lines = shards.run("compare bool((y != y).any())").output.splitlines()
    assert lines == [
        "bool((y != y).any()) in 256 shards:",
        "  shards 0–215, 217–255: False",
        "! shard 216: True",
        "shard 216 differs: True, 255 others False",
    ]
    assert [r.shard for r in shards.compared[1] if r.differs] == [216]


def test_float_results_that_differ_by_rounding_agree():
    shards = ShardSession(draw_values=row_pictures, expected=8)
    for index in range(8):
        shards.add(_hit(index, y=1.0 + index * 1e-7))
    rows = shards.compare("y * 3")
    assert len({r.value for r in rows}) > 1, "the texts differ in the last digits"
    assert not any(r.differs for r in rows)
    assert shards.run("compare y * 3").output.splitlines()[-1].startswith("all 8 shards agree")
    assert [r.differs for r in shards.compare("y if y < 1.0000005 else y + 1")] == [False] * 5 + [
        True
    ] * 3


def test_continue_this_device_moves_on_to_the_next_waiting_shard_and_wraps():
    shards = _gathered(4)
    shards.run("dev 1")
    shards.run("c 1")
    assert shards.selected_index == 2
    shards.run("dev 3")
    shards.run("c 3")
    assert shards.selected_index == 0, "past the last shard, back to the first still waiting"


def test_continue_one_shard_drops_its_value_from_the_last_compare():
    shards = _gathered(4)
    shards.compare("y == 2")
    shards.run("c 2")
    rows = shards.compared[1]
    assert rows[2].value == "(continued)" and not any(r.differs for r in rows)


def test_dev_names_a_continued_shard_as_the_selector_does():
    shards = _gathered(2)
    shards.run("c 0")
    assert shards.run("dev").output.splitlines()[1].endswith("shard 0 (continued)")


@pytest.mark.parametrize(
    "name", ["216", "CPU 216", "cpu216", "data=13, model=8", "data=13,model=8"]
)
def test_a_shard_is_found_by_number_device_or_mesh_position(name):
    shards = _mesh_16x16()
    assert shards.run(f"dev {name}").output.startswith("CPU 216, data=13, model=8, shard 216")


def test_without_a_mesh_a_device_name_says_why_it_is_not_found():
    shards = ShardSession(draw_values=row_pictures, expected=2)
    for index in range(2):
        shards.add(_hit(index, place=ShardPlace((("i", index),))))
    entry = shards.run("dev CPU 1")
    assert entry.error and "known by mesh position only (i=0)" in entry.output
    assert "jax.set_mesh" in entry.output
    assert shards.run("dev i=1").output.startswith("i=1, shard 1")


def test_arrays_equal_within_rounding_agree_and_a_nan_stands_out():
    shards = ShardSession(draw_values=row_pictures, expected=4)
    for index in range(4):
        shards.add(_hit(index, y=float("nan") if index == 3 else 1.0 + index * 1e-7))
    rows = shards.compare("x * 0 + y")  # arrays of four floats each
    assert len({r.value for r in rows[:3]}) > 1, "the texts differ in the last digits"
    assert [r.differs for r in rows] == [False, False, False, True]

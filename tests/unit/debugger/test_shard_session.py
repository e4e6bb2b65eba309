"""The shard session model: gathering hits, the device selector, compare, continue one or all, quit."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from jaxdbg_widgets.debugger.protocol import apply_message
from jaxdbg_widgets.debugger.session import Resume, Session
from jaxdbg_widgets.debugger.shard_session import ShardSession, expected_hits, parse_shard

from .conftest import CoreLikeFrame, jax_frames


def _hit(index: int, *, y: float | None = None, label: str | None = None) -> Session:
    y = float(index) if y is None else y
    frames = jax_frames(x=np.full(4, index, np.float32), y=y, scale=2.0)
    return Session(frames, thread_id=100 + index, device=label or f"CPU {index} (x={index})")


def _gathered(count: int = 8, **kwargs) -> ShardSession:
    shards = ShardSession(expected=count, axis_sizes=(count,), **kwargs)
    for index in reversed(range(count)):  # arrival order is not mesh order
        shards.add(_hit(index))
    return shards


@pytest.mark.parametrize(
    ("label", "device", "position", "element"),
    [
        ("CPU 3 (x=3)", "CPU 3", (("x", 3),), None),
        ("CPU 5 (x=1, y=1)", "CPU 5", (("x", 1), ("y", 1)), None),
        ("x=2", None, (("x", 2),), None),
        ("CPU 3 (x=3), vmap element 2", "CPU 3", (("x", 3),), 2),
        ("vmap element 4", None, (), 4),
        ("pmap index 6", None, (("_pmap", 6),), None),
    ],
)
def test_device_labels_read_back_into_shards(label, device, position, element):
    shard = parse_shard(label)
    assert (shard.device, shard.position, shard.element) == (device, position, element)


def test_hits_are_kept_in_mesh_order_whatever_their_arrival():
    shards = _gathered()
    assert [s.device for s in shards.shards] == [f"CPU {i}" for i in range(8)]
    assert shards.arrived == 8 and shards.waiting == 8
    assert shards.shard.device == "CPU 0"  # the first in mesh order until the user picks


def test_shard_index_is_row_major_in_the_mesh():
    shards = ShardSession(axis_sizes=(2, 4))
    shards.add(_hit(0, label="CPU 6 (x=1, y=2)"))
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
    shards = ShardSession(expected=8)
    for index in range(8):
        shards.add(_hit(index, y=float("nan") if index == 5 else 1.0))
    entry = shards.run("compare y * 2")
    rows = shards.compared[1]
    assert [r.index for r in rows if r.differs] == [5]
    assert entry.output.splitlines()[-1].startswith("1 of 8 shards differ")
    assert "!   5  CPU 5 (x=5)  nan" in entry.output


def test_compare_agreeing_shards_and_errors():
    shards = _gathered(4)
    assert shards.run("cmp scale").output.endswith("all 4 shards agree")
    rows = shards.compare("1 / (y - 2)")
    assert [r.error for r in rows] == [False, False, True, False]
    assert rows[2].differs and rows[2].value.startswith("*** ZeroDivisionError")


def test_compare_follows_the_selected_frame_depth():
    shards = _gathered(2)
    shards.run("u")
    assert [r.value for r in shards.compare("x")] == ["1", "1"]


def test_continue_one_shard_then_the_rest():
    shards = _gathered(4)
    shards.run("dev 1")
    assert shards.run("c 1").output == "Continuing CPU 1 (x=1); 3 still waiting."
    assert shards.resume_of(1) is Resume.CONTINUE and shards.resume is None
    assert shards.shard.device == "CPU 0"  # selection moves to a waiting shard
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
    shards = ShardSession(expected=4)
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
    shards = ShardSession(expected=8)
    answers: dict[int, Resume | None] = {}

    def device(index: int) -> None:
        shard = shards.add(_hit(index))
        answers[index] = shards.wait(shard, timeout=10)

    threads = [threading.Thread(target=device, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    assert shards.wait_for_hits(8, timeout=10)
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
    apply_message(shards, {"type": "continue", "index": 2})
    assert shards.resume_of(2) is Resume.CONTINUE


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
    shards = ShardSession()
    for index in range(2):
        frame = CoreLikeFrame(
            "/work/m.py", 3, "f", {"v": np.arange(3) + 10 * index}, batched=("v",)
        )
        shards.add(Session([frame], device=f"x={index}", batch_size=3))
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
        ("0.0", True),
        ("(continued)", False),
        ("2.0", True),
    ]


def test_setting_resume_releases_every_shard():
    shards = _gathered(3)
    shards.resume = Resume.CONTINUE  # what the headless policy does to any session
    assert [shards.resume_of(i) for i in range(3)] == [Resume.CONTINUE] * 3

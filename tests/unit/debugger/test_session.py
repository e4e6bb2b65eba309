"""The session model: every jdb command with the CLI's meaning, bounded errors, batches, release."""

from __future__ import annotations

import dataclasses
import gc
import os
import sysconfig
import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.session import workers
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.frame_view import view_frame
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.session.values import RESULT_LIMIT

from .conftest import CoreLikeFrame, JaxLikeFrame, jax_frames


def test_frames_hide_internal_ones_until_asked(frames):
    session = Session(frames)
    assert [f.function for f in session.frames] == ["step", "run"]
    session.set_show_internal(True)
    assert len(session.frames) == 3
    assert session.frames[2].internal


def test_function_names_come_from_source_for_jax_frames(frames):
    session = Session(frames)
    assert session.frame.function == "step"
    assert session.location == "step (/work/model.py:12)"


def test_p_evaluates_in_the_selected_frame(frames):
    session = Session(frames)
    assert session.run("p y + 1").output == "7.0"
    assert session.run("y * 2").output == "12.0"
    session.run("u")
    assert session.run("p x").output == "1"


def test_pp_pretty_prints():
    session = Session(jax_frames(data={f"key{i}": list(range(12)) for i in range(3)}))
    output = session.run("pp data").output
    assert output.count("\n") >= 2
    assert output.startswith("{'key0': [0,")


def test_comprehensions_see_the_frame_locals(frames):
    session = Session(frames)
    assert session.run("p [y * i for i in range(3)]").output == "[0.0, 6.0, 12.0]"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("p missing", "*** NameError: name 'missing' is not defined"),
        ("p 1/0", "*** ZeroDivisionError: division by zero"),
        ("p (", "*** SyntaxError: '(' was never closed"),
        ("p", "*** SyntaxError: an expression is needed"),
    ],
)
def test_errors_are_reported_and_the_session_keeps_working(frames, line, expected):
    session = Session(frames)
    entry = session.run(line)
    assert entry.error
    assert entry.output.startswith(expected)
    assert session.run("p scale").output == "2.0"


class _BadRepr:
    def __repr__(self):
        raise ValueError("no repr for you")


class _HugeRepr:
    def __repr__(self):
        return "x" * 10_000_000


def test_a_raising_repr_is_shown():
    session = Session(jax_frames(bad=_BadRepr()))
    entry = session.run("p bad")
    assert "repr of" in entry.output and "ValueError: no repr for you" in entry.output


def test_a_huge_repr_is_truncated():
    session = Session(jax_frames(big=_HugeRepr()))
    output = session.run("p big").output
    assert len(output) <= RESULT_LIMIT
    assert output.endswith("more characters]")


def test_an_exception_with_a_raising_str_is_shown():
    class Weird(Exception):
        def __str__(self):
            raise RuntimeError("nope")

    def boom():
        raise Weird

    session = Session(jax_frames(boom=boom))
    assert session.run("p boom()").output.startswith("*** Weird: <exception message")


def test_up_and_down_stop_at_the_ends(frames):
    session = Session(frames)
    out = session.run("d").output
    assert out.startswith("At bottommost frame.\n> /work/model.py(12)")
    assert session.run("up").output.startswith("> /work/train.py(31)")
    assert session.selected == 1
    assert session.run("u").output.startswith("At topmost frame.")
    assert session.run("down").output.startswith("> /work/model.py(12)")


def test_context_marks_the_current_line_like_the_cli(frames):
    session = Session(frames)
    assert session.context() == "\n".join(
        [
            "> /work/model.py(12)",
            "    def step(x, scale):",
            "        y = x * scale",
            "->      jax.debug.breakpoint()",
            "        return y",
        ]
    )
    assert session.run("l").output == session.context(num_lines=5)
    assert session.run("list").output == session.context(num_lines=5)


def test_where_lists_outermost_first(frames):
    session = Session(frames)
    expected = "\n".join(
        [
            "Traceback:",
            '  File "/work/train.py", line 31',
            "    total = step(x, 2.0)",
            '  File "/work/model.py", line 12',
            "    jax.debug.breakpoint()",
        ]
    )
    for alias in ("w", "where", "bt"):
        assert session.run(alias).output == expected


def test_frames_without_source_say_so():
    frame = CoreLikeFrame("<string>", 3, "f", {"a": 1})
    session = Session([frame])
    assert session.run("l").output == "> <string>(3)\n    <no source>"
    assert "<no source>" in session.run("w").output


@pytest.mark.parametrize(
    ("line", "resume"),
    [
        ("c", Resume.CONTINUE),
        ("cont", Resume.CONTINUE),
        ("continue", Resume.CONTINUE),
        ("ca", Resume.CONTINUE_ALL),
        ("continue_all", Resume.CONTINUE_ALL),
        ("q", Resume.QUIT),
        ("quit", Resume.QUIT),
        ("exit", Resume.QUIT),
    ],
)
def test_resume_commands(frames, line, resume):
    session = Session(frames)
    session.run(line)
    assert session.resume is resume
    with pytest.raises(RuntimeError, match="already ended"):
        session.run("p y")


def test_help_lists_every_command_and_describes_one(frames):
    session = Session(frames)
    listing = session.run("help").output
    for usage in ("p expression", "pp expression", "u(p)", "d(own)", "w(here)", "l(ist)", "q(uit)"):
        assert usage in listing
    assert session.run("help p").output.startswith("p expression")
    assert session.run("h where").output.startswith("w(here)")
    assert session.run("? l").output.startswith("l(ist)")
    assert session.run("help nothing").error


def test_empty_line_repeats_the_last_command(frames):
    session = Session(frames)
    assert session.run("").output == ""
    session.run("u")
    session.run("")
    assert session.selected == 1
    assert session.transcript[-1].command == "u"


def test_history_carries_over_from_earlier_sessions(frames):
    session = Session(frames, history=["p old"])
    session.run("p y")
    assert session.history == ["p old", "p y"]


def test_history_skips_consecutive_repeats(frames):
    session = Session(frames)
    for line in ["p y", "p y", "u", "p x"]:
        session.run(line)
    assert session.history == ["p y", "u", "p x"]


def test_globals_and_locals_both_reach_evaluation():
    frame = CoreLikeFrame(
        "/work/m.py", 4, "f", {"a": 2}, globals={"np": np, "a": 100, "K": 5}, source=["x"], offset=0
    )
    session = Session([frame])
    assert session.run("p a + K").output == "7"
    assert session.run("p np.int32(a)").output == "np.int32(2)"


def test_select_frame_validates(frames):
    session = Session(frames)
    session.select_frame(1)
    assert session.frame.filename == "/work/train.py"
    with pytest.raises(ValueError, match="frame index"):
        session.select_frame(5)


def test_batch_selection_narrows_batched_locals_only():
    frame = CoreLikeFrame(
        "/work/m.py",
        2,
        "f",
        {"x": np.arange(6).reshape(3, 2), "w": np.ones(2)},
        source=["def f(x):", "    breakpoint()"],
        offset=1,
        batched=("x",),
    )
    session = Session([frame], batch_size=3)
    assert session.run("p x.tolist()").output == "[0, 1]"
    session.select_batch(2)
    assert session.run("p x.tolist()").output == "[4, 5]"
    assert session.run("p w.shape").output == "(2,)"
    with pytest.raises(ValueError, match="batch index"):
        session.select_batch(3)
    with pytest.raises(ValueError, match="not batched"):
        Session([frame]).select_batch(0)


def test_evaluate_at_another_frame_and_element_leaves_the_selection():
    inner = CoreLikeFrame("/work/m.py", 2, "f", {"v": np.arange(3) * 10}, batched=("v",))
    outer = CoreLikeFrame("/work/m.py", 9, "g", {"v": "outer"})
    session = Session([inner, outer], batch_size=3)
    assert session.evaluate("v") == 0
    assert session.evaluate("v", element=2) == 20
    assert session.evaluate("v", depth=1) == "outer"
    assert session.evaluate("v", depth=5) == "outer"  # clamped to the frames there are
    assert (session.selected, session.batch_index) == (0, 0)
    with pytest.raises(LookupError, match="no frames"):
        Session([]).evaluate("1")


def test_b_selects_by_the_real_element_where_a_predicate_held_at_some():
    frame = CoreLikeFrame("/work/m.py", 1, "f", {"x": np.array([20, 30, 40])}, batched=("x",))
    session = Session([frame], batch_size=3, batch_indices=[2, 3, 4], batch_total=5)
    assert session.run("b").output == "batch index 2 of 5 (stopped at elements 2, 3, 4)"
    assert session.run("b 4").output == "batch index 4 of 5 (stopped at elements 2, 3, 4)"
    assert session.run("p int(x)").output == "40"
    assert session.run("b 1").output.startswith("*** ValueError: element 1 did not stop here")
    assert session.run("b 5").output.startswith("*** ValueError: batch index must be")
    assert session.batch_element == 4
    assert session.evaluate("int(x)", element=3) == 30


def test_batch_command_shows_and_selects_the_element():
    frame = CoreLikeFrame(
        "/work/m.py", 1, "f", {"x": np.arange(3)}, source=["f()"], offset=0, batched=("x",)
    )
    session = Session([frame], batch_size=3)
    assert session.run("batch").output == "batch index 0 of 3"
    assert session.run("b 2").output == "batch index 2 of 3"
    assert session.run("p x").output == "np.int64(2)"
    assert session.run("b 7").output.startswith("*** ValueError: batch index must be")
    assert session.run("b two").error
    assert Session([frame]).run("batch").output == "*** ValueError: this breakpoint is not batched"


class _Payload:
    pass


def test_close_releases_every_value(frames):
    payload = _Payload()
    ref = weakref.ref(payload)
    session = Session(jax_frames(payload=payload))
    session.run("p payload")
    del payload
    session.close()
    gc.collect()
    assert ref() is None
    assert session.frame_locals() == {}


@pytest.fixture
def fresh_worker_numbers(monkeypatch):
    """Number worker threads from 1 in this test, and restore the process's numbering after."""
    monkeypatch.setattr(workers, "_numbers", {})


def test_thread_label_names_thread_and_device(frames, fresh_worker_numbers):
    assert Session(frames).thread_label == "main thread"
    assert Session(frames, thread_id=12, device="cpu:3").thread_label == "worker 1, cpu:3"


def test_worker_threads_get_short_stable_numbers_not_raw_ids(frames, fresh_worker_numbers):
    ids = [140127116449472, 140127108056768, 140127116449472]
    labels = [Session(frames, thread_id=i).thread_label for i in ids]
    assert labels == ["worker 1", "worker 2", "worker 1"]
    assert not any(str(i) in label for i in ids for label in labels)


def test_core_frames_keep_their_function_and_internal_flag():
    frame = CoreLikeFrame("/work/m.py", 2, "loss", {"a": 1})
    session = Session([frame])
    assert session.frame.function == "loss"
    assert not session.frame.internal


def test_real_jax_debugger_frames_are_read():
    from jax._src.debugger.core import DebuggerFrame

    frame = DebuggerFrame("/work/k.py", {"v": 5}, {}, "", ["def k(v):", "  return v"], 2, 1)
    session = Session([frame])
    assert session.frame.function == "k"
    assert session.run("p v * 2").output == "10"


def test_function_name_skips_nested_definitions_above_the_line():
    source = [
        "def run_all(nodes):",
        "    def compare(a, b):",
        "        return a == b",
        "    for node in nodes:",
        "        if compare(node, 1):",
        "            breakpoint()",
    ]
    frame = view_frame(JaxLikeFrame("/work/x.py", {}, {}, "", source, 6, 5))
    assert frame.function == "run_all"


@dataclasses.dataclass
class _Pair:
    a: Any
    b: Any


jax.tree_util.register_dataclass(_Pair, data_fields=["a", "b"], meta_fields=[])


def _vmapped_session() -> Session:
    """A session on a vmap breakpoint whose locals are pytrees mixing batched and fixed leaves."""
    hits = []
    undo = jax_registry.register(
        "narrow", lambda frames, tid, **kw: hits.append((frames, kw)), -100
    )
    try:

        def per_row(v):
            fixed = jnp.arange(2.0)
            t = (v, fixed, 7)
            xs = [fixed, v * 10]
            d = {"row": v, "fixed": fixed, "name": "n"}
            pair = _Pair(v + 1, fixed)
            jdw.breakpoint(backend="narrow")
            return t[:2], xs, d["row"], pair

        jax.vmap(per_row)(jnp.arange(6.0).reshape(3, 2))
        jax.effects_barrier()
    finally:
        undo()
    ((frames, kw),) = hits
    return Session(frames, batch_size=kw["batch_size"])


def test_b_narrows_every_batched_pytree_leaf_and_only_those():
    session = _vmapped_session()
    assert session.run("b 1").output == "batch index 1 of 3"
    assert (
        session.run("p t[0].tolist(), t[1].tolist(), t[2]").output == "([2.0, 3.0], [0.0, 1.0], 7)"
    )
    assert session.run("p [x.tolist() for x in xs]").output == "[[0.0, 1.0], [20.0, 30.0]]"
    assert session.run("p d['row'].tolist(), d['fixed'].tolist(), d['name']").output == (
        "([2.0, 3.0], [0.0, 1.0], 'n')"
    )
    assert session.run("p pair.a.tolist(), pair.b.tolist()").output == "([3.0, 4.0], [0.0, 1.0])"
    shown = {name: value for name, value in session.frame_locals().items()}
    assert shown["d"]["row"].tolist() == [2.0, 3.0] and shown["pair"].a.tolist() == [3.0, 4.0]
    assert set(session.frame.batched) == {"v", "t", "xs", "d", "pair"}


@pytest.mark.parametrize(
    "expression",
    [
        "exit()",
        "quit()",
        "(_ for _ in ()).throw(SystemExit(3))",
        "(_ for _ in ()).throw(KeyboardInterrupt())",
    ],
)
def test_an_expression_that_exits_keeps_the_session_and_its_transcript(frames, expression):
    session = Session(frames)
    session.run("p y")
    entry = session.run(f"p {expression}")
    assert entry.error and entry.output.startswith("*** ")
    assert session.resume is None
    assert [e.command for e in session.transcript] == ["p y", f"p {expression}"]
    assert session.run("p y + 1").output == "7.0"


def test_library_files_and_the_kernel_launcher_are_internal_frames():
    launcher = os.path.join(sysconfig.get_paths()["purelib"], "ipykernel_launcher.py")
    library = os.path.join(sysconfig.get_paths()["purelib"], "flax", "core.py")
    frames = [
        CoreLikeFrame("/work/model.py", 3, "step", {}),
        JaxLikeFrame(library, {}, {}, "", ["x"], 1, 0),
        JaxLikeFrame(launcher, {}, {}, "", ["app.launch_new_instance()"], 18, 0),
    ]
    session = Session(frames)
    assert [f.function for f in session.frames] == ["step"]
    assert session.run("u").output.startswith("At topmost frame.")
    assert "launcher" not in session.run("w").output

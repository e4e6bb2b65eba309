"""Scripted answers: parsing, scoping and the queue used by ``%jaxdbg script``."""

from __future__ import annotations

import threading
import time

import pytest

from jaxdbg_widgets.debugger.serve import scripts


@pytest.fixture(autouse=True)
def _no_queue():
    scripts.clear_queue()
    yield
    scripts.clear_queue()


def test_parse_accepts_lists_and_separated_strings():
    assert scripts.parse_commands(["p x", " u ", ""]) == ["p x", "u"]
    assert scripts.parse_commands("p x; u\npp y;;c") == ["p x", "u", "pp y", "c"]
    with pytest.raises(TypeError, match="must be strings"):
        scripts.parse_commands(["p x", 3])
    with pytest.raises(TypeError, match="list of strings or one string"):
        scripts.parse_commands(5)


def test_script_is_active_only_inside_the_block():
    assert scripts.active() is None
    with scripts.script(["p x", "c"]) as outer:
        assert scripts.active() is outer
        with scripts.script("c") as inner:
            assert scripts.active() is inner
        assert scripts.active() is outer
        assert outer.next_command() == "p x"
        assert outer.remaining == ["c"]
    assert scripts.active() is None


def test_queue_lasts_until_used_up():
    queued = scripts.queue("p x; c")
    assert scripts.active() is queued
    assert queued.next_command() == "p x"
    assert queued.next_command() == "c"
    assert queued.next_command() is None
    assert scripts.active() is None


def test_a_scoped_script_beats_the_queue():
    scripts.queue("c")
    with scripts.script("q") as scoped:
        assert scripts.active() is scoped


def test_each_thread_runs_only_its_own_script():
    """8 threads, each inside its own block, answer their own breakpoints (on their thread)."""
    start = threading.Barrier(8)
    answered: dict[int, list[str]] = {}

    def work(n: int) -> None:
        with scripts.script([f"p {n}", f"p {n} * 10", "c"]):
            start.wait()
            commands = []
            while (command := scripts.active().next_command()) is not None:
                commands.append(command)
                time.sleep(0.001)
            answered[n] = commands

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answered == {n: [f"p {n}", f"p {n} * 10", "c"] for n in range(8)}
    assert scripts.active() is None


def test_a_worker_thread_with_no_block_is_answered_by_the_main_threads():
    found = []
    with scripts.script(["p 1"]) as main_script:
        worker = threading.Thread(target=lambda: found.append(scripts.active()))
        worker.start()
        worker.join()
    assert found == [main_script]
